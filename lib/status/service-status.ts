import "server-only";
import { catalogStatus } from "@/lib/catalog/status";
import { clientAborts } from "@/lib/client-aborts.mjs";
import { config } from "@/lib/config";
import type { Db } from "@/lib/db";
import { usageBufferStats } from "@/lib/auth/usage";
import { latestRecorderRun } from "@/lib/history/journal";
import { recordedVenues } from "@/lib/recorder/registry";
import { processMemory, processStartedAt } from "./process";
import { identityPairOutcomeCounts } from "@/lib/matching/outcome-audit";

/**
 * GET /v0/status: the service's ingestion status. Each ingesting subsystem (catalog poller,
 * tick recorder) contributes its own section here.
 */
export async function getServiceStatus(db: Db): Promise<Record<string, unknown>> {
  const startedAt = processStartedAt();
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
    // Each recorded venue's section under its `statusKey` (lib/recorder/registry.ts): this process's
    // recorder of it (why it follows nothing, or records nothing, in its venue's words), and the
    // newest heartbeat of any (a recorder in its own process too).
    ...(await recorderSections(db)),
    // Identity pairs both of whose markets resolved, and those that resolved differently (proven false identities).
    pairs: await identityPairOutcomeCounts(db),
  };
}

async function recorderSections(db: Db): Promise<Record<string, unknown>> {
  const sections: Record<string, unknown> = {};
  for (const venue of recordedVenues()) sections[venue.statusKey] = { ...(await venue.recorder.status(db)), heartbeat: await latestRecorderRun(db, venue.id) };
  return sections;
}
