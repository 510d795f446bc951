import type { ClickHouseClient } from "@clickhouse/client";
import { tickDdl } from "./ddl";

/**
 * Applies the versioned DDL files in lib/ticks/ddl once each, in order, recording each version
 * in `brier_ddl_migrations`. Every statement is idempotent (IF NOT EXISTS), so two instances
 * starting together are harmless.
 */
export async function applyTickDdl(writer: ClickHouseClient): Promise<string[]> {
  await writer.command({
    query: `CREATE TABLE IF NOT EXISTS brier_ddl_migrations
      (version String, applied_at DateTime64(3) DEFAULT now64(3))
      ENGINE = ReplacingMergeTree ORDER BY version`,
  });
  const result = await writer.query({ query: "SELECT version FROM brier_ddl_migrations", format: "JSONEachRow" });
  const applied = new Set((await result.json<{ version: string }>()).map((row) => row.version));
  const newlyApplied: string[] = [];
  for (const migration of tickDdl) {
    if (applied.has(migration.version)) continue;
    for (const statement of migration.statements) await writer.command({ query: statement });
    await writer.insert({
      table: "brier_ddl_migrations",
      values: [{ version: migration.version }],
      format: "JSONEachRow",
    });
    newlyApplied.push(migration.version);
  }
  return newlyApplied;
}
