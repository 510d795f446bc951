import "server-only";
import { vacuumCatalogWrites } from "@/lib/catalog/generation";
import { config } from "@/lib/config";
import { getDatabase, getDb } from "@/lib/db";
import { lockDataDir } from "@/lib/db/data-dir-lock";
import { flushRateLimits } from "@/lib/auth/rate-limit";
import { flushUsage } from "@/lib/auth/usage";
import { closeKeyLimits } from "@/lib/limits";
import { errorFields, log } from "@/lib/log";
import type { ResolutionSink } from "@/lib/outcomes/sink";
import { healthMonitor } from "@/lib/status/health";
import { BACKGROUND_JOBS_TASK, startupTask } from "@/lib/status/health-state.mjs";
import { closeLiveBus, getLiveBus } from "@/lib/live/connection";
import { closeStreams } from "@/lib/streams/live";
import { flushStreamUsage } from "@/lib/streams/usage";
import { getTickStores } from "@/lib/ticks";
import { processGlobals } from "@/lib/process-globals.mjs";

const globalStore = processGlobals<{ __brierJobs?: boolean }>();

/** Work to finish before the process exits (flush buffers), registered by each subsystem. */
const shutdownHooks: Array<() => Promise<void>> = [flushUsage, async () => flushRateLimits(await getDb())];

export function onShutdown(hook: () => Promise<void>): void {
  shutdownHooks.push(hook);
}

/**
 * Longest readiness waits for start-up work: past it the server says it is ready anyway (a venue
 * that takes minutes to list must not keep it out of service) and logs which work still runs.
 */
const STARTUP_MAX_MS = 60_000;

/**
 * Start-up work that would stall requests if they arrived during it (measured: the first catalog
 * poll's matching pass loads and runs its NLP models on the request thread, seconds on 2 cores;
 * docs/performance.md, "The first minute"). Readiness is false until it settles or STARTUP_MAX_MS.
 */
function startupWork(name: string, work: Promise<unknown>): void {
  const done = startupTask(name);
  const timer = setTimeout(() => {
    log.warn("start-up work still running; ready without waiting for it", { work: name, afterMs: STARTUP_MAX_MS });
    done();
  }, STARTUP_MAX_MS);
  timer.unref();
  void work.catch(() => undefined).finally(() => {
    clearTimeout(timer);
    done();
  });
}

/**
 * Called once per server process from instrumentation.ts: opens both stores (applying
 * migrations and DDL before the first request), then starts in-process ingestion where this
 * deployment runs it. Guarded so dev reloads never start it twice.
 */
export async function startBackgroundJobs(): Promise<void> {
  if (globalStore.__brierJobs === true) return;
  globalStore.__brierJobs = true;
  // server.mjs declares this task before it listens (register() may run after the first request):
  // readiness stays false until the work below is started and declared.
  const declared = startupTask(BACKGROUND_JOBS_TASK);
  try {
    await startJobs();
  } finally {
    declared();
  }
}

async function startJobs(): Promise<void> {
  await Promise.all([getDatabase(), openTickStoresAtStart()]);
  healthMonitor().start();
  installShutdown();
  // Open streams close (their usage sampled) and the usage is written before exit.
  onShutdown(async () => {
    await closeStreams();
    await closeLiveBus();
    await Promise.all([flushStreamUsage(), closeKeyLimits()]);
  });
  // PGlite runs no autovacuum: the catalog generation's table is vacuumed here (lib/catalog/generation.ts).
  if (config.embeddedPostgres) startGenerationVacuum();
  if (!config.backgroundJobs) {
    log.info("background jobs disabled (BACKGROUND_JOBS=false)");
    return;
  }
  // Imported here, not at the top: a server without background jobs (BACKGROUND_JOBS=false, a web
  // instance beside a jobs instance) never loads the schedules, the recorders and what only they use.
  const [{ startCatalogSchedule }, { startRecorders }, { startArchiveSchedule }, { startSpreadDaysAhead }] = await Promise.all([
    import("@/lib/jobs/catalog-schedule"),
    import("@/lib/recorder/registry"),
    import("@/lib/archive/schedule"),
    import("@/lib/spreads/days-ahead"),
  ]);
  const { stop, firstRound } = startCatalogSchedule();
  onShutdown(async () => stop());
  startupWork("first catalog poll and its follow-ups", firstRound);
  // The outcome readers (docs/outcomes.md) run where the recorders run: their push half rides on the recorders' channels.
  const outcomes = config.embeddedClickhouse ? await startOutcomes() : undefined;
  // The recorded venues' recorders (lib/recorder/registry.ts): in this process with embedded stores;
  // with CLICKHOUSE_URL they are `npm run recorder`. Kalshi's without credentials records nothing and /v0/status says why.
  if (config.embeddedClickhouse) {
    const [db, stores] = await Promise.all([getDb(), getTickStores()]);
    for (const { venue, started } of startRecorders({ stores, db, mode: "in-process", ...(outcomes !== undefined ? { outcomes } : {}) })) {
      const work = started.catch((error: unknown) => log.error("recorder failed to start", { venue: venue.id, ...errorFields(error) }));
      if (venue.recorder.startupTask !== undefined) startupWork(venue.recorder.startupTask, work);
      onShutdown(venue.recorder.stop);
    }
  }
  // The archive's closed hours: file stats built ahead of the first download or manifest.
  if (config.embeddedClickhouse) {
    const archive = startArchiveSchedule();
    onShutdown(async () => archive.stop());
  }
  // The latest pairs' closed days, folded ahead of the first pair page (lib/spreads/days-ahead.ts).
  const daysAhead = startSpreadDaysAhead();
  onShutdown(async () => daysAhead.stop());
  // `npm run demo`: the synthetic venues tick and publish on the live bus like recorders (lib/demo/live.ts).
  if (config.demoLive) {
    const { startDemoTicker } = await import("@/lib/demo/live");
    const [db, stores, bus] = await Promise.all([getDb(), getTickStores(), getLiveBus()]);
    startupWork(
      "synthetic demo venues",
      startDemoTicker(db, stores, bus).then(
        (ticker) => onShutdown(() => ticker.stop()),
        (error: unknown) => log.error("synthetic demo venues failed to start", errorFields(error)),
      ),
    );
  }
}

/** Every 5 minutes, `vacuumCatalogWrites` on the embedded store (a failure is logged and retried at the next turn). */
function startGenerationVacuum(): void {
  const timer = setInterval(() => {
    void getDb()
      .then(vacuumCatalogWrites)
      .catch((error: unknown) => log.warn("catalog generation vacuum failed", errorFields(error)));
  }, 5 * 60_000);
  timer.unref();
  onShutdown(async () => clearInterval(timer));
}

/** The process's outcome sink and the REST sweeps of the recorded venues (stopped at shutdown). */
async function startOutcomes(): Promise<ResolutionSink> {
  const { startOutcomeSweeps } = await import("@/lib/jobs/outcomes");
  const sweeps = await startOutcomeSweeps();
  onShutdown(sweeps.stop);
  return sweeps.sink;
}

/**
 * The tick stores are opened (and their DDL applied) before the first request when something in
 * this process needs them from the start: a ClickHouse server's client (cheap), or the background
 * jobs on the embedded engine (the recorder, the archive's stats, the poll's price history). A
 * server without background jobs on embedded chDB takes the data dir's lock now, so a second
 * process still fails at start, and loads the engine at the first request that reads ticks: the
 * library alone is ~150 MB resident and its first session ~45 MB more (docs/performance.md,
 * "Memory"), which a server answering only the catalog and the pass-through never uses.
 */
export async function openTickStoresAtStart(): Promise<void> {
  if (config.embeddedClickhouse && !config.backgroundJobs) {
    lockDataDir(config.dataDir, "ch");
    log.info("embedded chDB opens at its first use (BACKGROUND_JOBS=false)");
    return;
  }
  await getTickStores();
}

function installShutdown(): void {
  let exiting = false;
  const shutdown = (signal: string) => {
    if (exiting) return;
    exiting = true;
    log.info("shutting down", { signal });
    void Promise.allSettled(shutdownHooks.map((hook) => hook()))
      .then((results) => {
        for (const result of results) {
          if (result.status === "rejected") log.error("shutdown hook failed", errorFields(result.reason));
        }
      })
      .finally(() => process.exit(0));
  };
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  process.once("SIGINT", () => shutdown("SIGINT"));
}
