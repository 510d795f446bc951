/**
 * `npm run recorder`: the tick recorder as its own process, for deployments with CLICKHOUSE_URL
 * (with embedded stores the server runs it in-process), and beside it the outcome readers
 * (docs/outcomes.md), as the server's background jobs run them in-process: the REST sweeps of the
 * recorded venues and the recorders' push half, into one sink. SIGTERM/SIGINT stop the sweeps,
 * close the connections and flush every buffered row and outcome record before exit. Logs go to stderr.
 */
import { closeDatabase, getDb } from "@/lib/db";
import { errorFields, log } from "@/lib/log";
import { startArchiveSchedule } from "@/lib/archive/schedule";
import { startOutcomeSweeps } from "@/lib/jobs/outcomes";
import { recordedVenues, startRecorders } from "@/lib/recorder/registry";
import { closeTickStores, getTickStores } from "@/lib/ticks";

async function main(): Promise<void> {
  // Every recorded venue's recorder (lib/recorder/registry.ts); Kalshi's without credentials records nothing and says why.
  const venues = recordedVenues().filter((venue) => venue.recorder.enabled());
  if (venues.length === 0) {
    log.info("recorder disabled (RECORDER_ENABLED=false, KALSHI_RECORDER_ENABLED=false)");
    return;
  }
  const [db, stores] = await Promise.all([getDb(), getTickStores()]);
  // The outcome readers run where the recorders run: their push half rides on the recorders' channels.
  const outcomes = await startOutcomeSweeps();
  for (const { started } of startRecorders({ stores, db, mode: "separate process", outcomes: outcomes.sink })) await started;
  // With CLICKHOUSE_URL the web instances stay stateless: this process builds the archive's file stats.
  const archive = startArchiveSchedule();
  const report = setInterval(() => log.info("recorder status", { ...Object.fromEntries(venues.map((venue) => [venue.id, venue.recorder.report()])), outcomes: outcomes.sink.counters }), 60_000);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    clearInterval(report);
    archive.stop();
    log.info("recorder shutting down", { signal });
    void Promise.all(venues.map((venue) => venue.recorder.stop()))
      .then(() => outcomes.stop())
      .then(() => Promise.all([closeTickStores(), closeDatabase()]))
      .catch((error: unknown) => log.error("recorder shutdown failed", errorFields(error)))
      .finally(() => process.exit(0));
  };
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  process.once("SIGINT", () => shutdown("SIGINT"));
}

main().catch((error: unknown) => {
  log.error("recorder failed", errorFields(error));
  process.exit(1);
});
