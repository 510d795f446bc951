/**
 * `npm run recorder`: the tick recorder as its own process, for deployments with CLICKHOUSE_URL
 * (with embedded stores the server runs it in-process). SIGTERM/SIGINT close the connections and
 * flush every buffered row before exit. Logs go to stderr.
 */
import { config } from "@/lib/config";
import { closeDatabase, getDb } from "@/lib/db";
import { errorFields, log } from "@/lib/log";
import { startArchiveSchedule } from "@/lib/archive/schedule";
import { kalshiRecorderStatus, startKalshiRecorder, stopKalshiRecorder } from "@/lib/recorder/kalshi/service";
import { startRecorder, stopRecorder } from "@/lib/recorder/polymarket/service";
import { closeTickStores, getTickStores } from "@/lib/ticks";

async function main(): Promise<void> {
  if (!config.recorder.enabled) {
    log.info("recorder disabled (RECORDER_ENABLED=false)");
    return;
  }
  const [db, stores] = await Promise.all([getDb(), getTickStores()]);
  const recorder = await startRecorder(stores, db, "separate process");
  // Kalshi's recorder in the same process; without credentials it records nothing and says why.
  await startKalshiRecorder(stores, db, "separate process");
  // With CLICKHOUSE_URL the web instances stay stateless: this process builds the archive's file stats.
  const archive = startArchiveSchedule();
  const report = setInterval(() => log.info("recorder status", { polymarket: recorder.status(), kalshi: kalshiRecorderStatus() }), 60_000);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    clearInterval(report);
    archive.stop();
    log.info("recorder shutting down", { signal });
    void Promise.all([stopRecorder(), stopKalshiRecorder()])
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
