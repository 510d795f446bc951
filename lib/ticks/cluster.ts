import { statements, tickTable } from "./ddl/0001_polymarket_orderbook";

/**
 * The tick table for a ClickHouse cluster, derived from the single-node DDL so the two never
 * drift: `<table>_local` (ReplicatedReplacingMergeTree, same columns, key, codecs and index) on
 * every node, and a Distributed `<table>` sharded by cityHash64(market), so a market's rows live on
 * one shard (dedup on merge and force_primary_key keep working).
 */
export function clusterStatements(cluster: string, database: string): string[] {
  const [single] = statements;
  if (single === undefined) throw new Error("tick table DDL missing");
  const local = `${tickTable}_local`;
  const localDdl = single
    .replace(`CREATE TABLE IF NOT EXISTS ${tickTable}`, `CREATE TABLE IF NOT EXISTS ${database}.${local} ON CLUSTER ${cluster}`)
    .replace(
      "ENGINE = ReplacingMergeTree",
      `ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/${database}/${local}', '{replica}')`,
    );
  const distributed = `CREATE TABLE IF NOT EXISTS ${database}.${tickTable} ON CLUSTER ${cluster}
  AS ${database}.${local}
  ENGINE = Distributed(${cluster}, ${database}, ${local}, cityHash64(market))`;
  return [localDdl, distributed];
}
