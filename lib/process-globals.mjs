// The process's global slots: every piece of state that lives on `globalThis`, named here with the
// reason it cannot be a module variable. Two reasons recur:
//
// - "bundles": Next compiles instrumentation (where the background jobs and recorders start) and
//   each route module as separate bundles, each with its own copy of every module, so a module
//   variable would exist once per bundle; dev reloads also re-evaluate modules. A store opened,
//   a schedule started or a cache filled once per process must hang off globalThis.
// - "front": server.mjs (the API front) runs before the bundle and loads its own copy of the
//   plain-JavaScript modules it shares with it; state both read sits on globalThis.
//
// Plain JavaScript so server.mjs can import it; the types are in process-globals.d.mts. Nothing
// else in the tree touches globalThis (lib/process-globals.test.ts holds that), so this list is
// the whole of the process's global state.

/** Every global slot, by key: who owns it and why it must be global. */
export const PROCESS_GLOBALS = Object.freeze({
  __brierDb: "lib/db: the PostgreSQL (or PGlite) handle, opened once per process (bundles; pitfall 2: one open of the data dir)",
  __brierTicks: "lib/ticks: the ClickHouse (or chDB) stores, opened once per process (bundles; pitfall 2)",
  __brierLiveBus: "lib/live: the live bus connection, shared by the recorders (instrumentation) and the stream servers (routes) (bundles)",
  __brierKeyLimits: "lib/limits: per-key leases held by this process, counted across streams, SQL and the pass-through (bundles)",
  __brierLeaseProcessId: "lib/catalog: this process's part of every lease holder; two ids in one process read a live poll as abandoned (bundles)",
  __brierPrincipals: "lib/auth: the principal cache, invalidated by key actions run from another bundle (bundles)",
  __brierUsage: "lib/auth: usage rows buffered by every route and flushed by the shutdown in instrumentation (bundles)",
  __brierRateLimits: "lib/auth: the embedded rate-limit counters every keyed route counts against (bundles)",
  __brierRateLeases: "lib/auth: hits leased from the shared rate-limit rows on PostgreSQL, served by every keyed route (bundles)",
  __brierKeyWatch: "lib/auth: principals kept on PostgreSQL while the process listens for key writes, one listening connection and one cache for every keyed route (bundles)",
  __brierChannelWatchers: "lib/db: how the process-wide database handle's notification channels are watched, registered where it was opened (bundles)",
  __brierBookPriceCache: "lib/matching: venue book prices of pairs, cached once for every route that prices pairs (bundles)",
  __brierJobs: "lib/jobs: background jobs started once per process, never twice across bundles or reloads (bundles)",
  __brierCatalogSchedule: "lib/jobs: the catalog poll's timers, started once and stopped at shutdown (bundles)",
  __brierArchiveSchedule: "lib/archive: the archive's timer, started once and stopped at shutdown (bundles)",
  __brierSpreadDays: "lib/spreads: the closed days of pairs folded and kept, and the windows being folded, shared by /spreads, /episodes and the schedule that folds days ahead (bundles)",
  __brierSpreadDaysAhead: "lib/spreads: the timer that folds the latest pairs' closed days ahead, started once and stopped at shutdown (bundles)",
  __brierArchiveBuilds: "lib/archive: hour files being built, so the schedule and a manifest request share one build of an hour (bundles)",
  __brierAdminChannel: "lib/operator: the admin channel's socket server, opened once (bundles)",
  __brierRecorder: "lib/recorder: the Polymarket recorder, started in instrumentation and read by the status route (bundles)",
  __brierKalshiRecorder: "lib/recorder: the Kalshi recorder, started in instrumentation and read by the status route (bundles)",
  __brierHealth: "lib/status: the stores' health monitor, probed once per process (bundles)",
  __brierHealthState: "lib/status: the shared array server.mjs's health port worker reads and the bundle's probe writes (front)",
  __brierStartup: "lib/status: start-up tasks declared by server.mjs and by the bundle's jobs; readiness waits on both (front)",
  __brierStreamHub: "lib/streams: the sessions of /ws and /v0/stream on the live bus, one hub per process (bundles)",
  __brierStreamServer: "lib/streams: the /ws upgrade handler server.mjs hands sockets to (bundles)",
  __brierStreamUsage: "lib/streams: stream usage rows buffered by every session and flushed at shutdown (bundles)",
  __brierClientAborts: "lib/client-aborts: aborted requests counted by server.mjs and shown by the bundled status route (front)",
});

/**
 * The process's globals, typed by the caller: `processGlobals()` in JavaScript,
 * `processGlobals<{ __brierDb?: Promise<DatabaseHandle> }>()` in TypeScript (the keys must be
 * registered above). Each module reads and writes only its own keys.
 */
export function processGlobals() {
  return globalThis;
}
