import type { ClickHouseClient } from "@clickhouse/client";
import { tickDdl } from "./ddl";

/** The database of Brier's own bookkeeping tables: never the one the SQL reader queries. */
export function internalDatabase(database: string): string {
  return `${database}_brier_internal`;
}

/**
 * Applies the versioned DDL files in lib/ticks/ddl once each, in order, recording each version
 * in `<database>_brier_internal.ddl_migrations`. Every statement is idempotent (IF NOT EXISTS), so
 * two instances starting together are harmless. The bookkeeping table lives outside the published
 * database, so the SQL reader (whose database is the published one) never has it in scope; a data
 * dir from before that move has its `brier_ddl_migrations` rows carried over and the old table dropped.
 */
export async function applyTickDdl(writer: ClickHouseClient, database = "default"): Promise<string[]> {
  const internal = internalDatabase(database);
  const ledger = `${internal}.ddl_migrations`;
  await writer.command({ query: `CREATE DATABASE IF NOT EXISTS ${internal}` });
  await writer.command({
    query: `CREATE TABLE IF NOT EXISTS ${ledger}
      (version String, applied_at DateTime64(3) DEFAULT now64(3))
      ENGINE = ReplacingMergeTree ORDER BY version`,
  });
  const legacy = await writer.query({
    query: "SELECT count() AS n FROM system.tables WHERE database = {database:String} AND name = 'brier_ddl_migrations'",
    query_params: { database },
    format: "JSONEachRow",
  });
  if (Number((await legacy.json<{ n: string | number }>())[0]?.n ?? 0) > 0) {
    await writer.command({ query: `INSERT INTO ${ledger} (version, applied_at) SELECT version, applied_at FROM ${database}.brier_ddl_migrations` });
    await writer.command({ query: `DROP TABLE IF EXISTS ${database}.brier_ddl_migrations` });
  }
  const result = await writer.query({ query: `SELECT version FROM ${ledger}`, format: "JSONEachRow" });
  const applied = new Set((await result.json<{ version: string }>()).map((row) => row.version));
  const newlyApplied: string[] = [];
  for (const migration of tickDdl) {
    if (applied.has(migration.version)) continue;
    const statements = typeof migration.statements === "function" ? migration.statements({ database, internal }) : migration.statements;
    for (const statement of statements) await writer.command({ query: statement });
    await writer.insert({ table: ledger, values: [{ version: migration.version }], format: "JSONEachRow" });
    newlyApplied.push(migration.version);
  }
  return newlyApplied;
}
