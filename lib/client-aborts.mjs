// A client that disconnects before its answer is written (it timed out, the user navigated away)
// is not the service's failure: it is counted here and logged at info with the route and the
// time the request had run, never as an error. Plain JavaScript: server.mjs (the API front) runs
// before the bundle and records the aborts; the bundled status page (lib/status) reads the counts
// through the same object on globalThis, as lib/status/health-state.mjs shares its state.

import { processGlobals } from "./process-globals.mjs";

const slots = processGlobals();

/** The process's counts (one object, shared by server.mjs and the bundle). */
function counts() {
  slots.__brierClientAborts ??= { total: 0, byRoute: new Map() };
  return slots.__brierClientAborts;
}

/**
 * Watches a response from the start of its request: returns a function that tells when (a
 * `performance.now()` time) the client closed the connection before the answer was fully written,
 * or undefined. Read at the connection's `close`: once the handler has called `res.end()` on a
 * socket that is already gone, Node reports the response finished although nothing was delivered.
 */
export function watchClientGone(res) {
  let goneAt;
  res.once("close", () => {
    if (!res.writableFinished) goneAt = performance.now();
  });
  return () => goneAt;
}

/**
 * Counts an aborted request of `route` (a route pattern such as `/v0/markets/[id]`, from a fixed
 * set, so the map stays as small as the route table) and logs it at info unless `quiet`.
 */
export function recordClientAbort({ route, method, elapsedMs, quiet = false }) {
  const state = counts();
  state.total += 1;
  state.byRoute.set(route, (state.byRoute.get(route) ?? 0) + 1);
  if (quiet) return;
  const line = { time: new Date().toISOString(), level: "info", msg: "client disconnected", route, method, elapsedMs: Math.round(elapsedMs) };
  process.stderr.write(`${JSON.stringify(line)}\n`);
}

/** Aborted requests since the process started, in total and by route. */
export function clientAborts() {
  const state = counts();
  return { total: state.total, byRoute: Object.fromEntries([...state.byRoute.entries()].sort(([a], [b]) => a.localeCompare(b))) };
}
