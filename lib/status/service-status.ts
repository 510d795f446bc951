import "server-only";
import { catalogStatus } from "@/lib/catalog/status";
import { config } from "@/lib/config";
import type { Db } from "@/lib/db";
import { usageBufferStats } from "@/lib/http/usage";
import { recorderStatus } from "@/lib/recorder/service";

const startedAt = new Date();

/**
 * GET /v0/status: the service's ingestion status. Each ingesting subsystem (catalog poller,
 * tick recorder) contributes its own section here.
 */
export async function getServiceStatus(db: Db): Promise<Record<string, unknown>> {
  return {
    service: {
      startedAt: startedAt.toISOString(),
      uptimeSeconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
      stores: {
        postgres: config.embeddedPostgres ? "embedded (PGlite)" : "PostgreSQL",
        clickhouse: config.embeddedClickhouse ? "embedded (chDB)" : "ClickHouse server",
      },
      usageBuffer: usageBufferStats(),
    },
    catalog: await catalogStatus(db),
    recorder: recorderStatus(),
  };
}
