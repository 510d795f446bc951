import "server-only";
import { catalogStatus } from "@/lib/catalog/status";
import { clientAborts } from "@/lib/client-aborts.mjs";
import { config } from "@/lib/config";
import type { Db } from "@/lib/db";
import { usageBufferStats } from "@/lib/auth/usage";
import { latestRecorderRun } from "@/lib/history/journal";
import { kalshiRecorderStatus } from "@/lib/recorder/kalshi/service";
import { recorderStatus } from "@/lib/recorder/polymarket/service";
import { processMemory, processStartedAt } from "./process";
import { recorderIdleReason } from "./recorder-idle";
import { identityPairOutcomeCounts } from "@/lib/matching/outcome-audit";

/**
 * GET /v0/status: the service's ingestion status. Each ingesting subsystem (catalog poller,
 * tick recorder) contributes its own section here.
 */
export async function getServiceStatus(db: Db): Promise<Record<string, unknown>> {
  const startedAt = processStartedAt();
  const recorder = recorderStatus();
  return {
    service: {
      startedAt: startedAt.toISOString(),
      uptimeSeconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
      stores: {
        postgres: config.embeddedPostgres ? "embedded (PGlite)" : "PostgreSQL",
        clickhouse: config.embeddedClickhouse ? "embedded (chDB)" : "ClickHouse server",
      },
      usageBuffer: usageBufferStats(),
      // Requests whose client disconnected before the answer was written (not failures; server.mjs counts them).
      abortedRequests: clientAborts(),
      memory: await processMemory(),
    },
    catalog: await catalogStatus(db),
    // This process's recorder, and the newest heartbeat of any (a recorder in its own process too).
    // idleReason: why a running recorder follows no asset (null otherwise).
    recorder: { ...recorder, idleReason: await recorderIdleReason(db, recorder.subscribedAssets), heartbeat: await latestRecorderRun(db) },
    // Kalshi's recorder: without credentials `reason` says so and nothing is recorded.
    kalshiRecorder: { ...kalshiRecorderStatus(), heartbeat: await latestRecorderRun(db, "kalshi") },
    // Identity pairs both of whose markets resolved, and those that resolved differently (proven false identities).
    pairs: await identityPairOutcomeCounts(db),
  };
}
