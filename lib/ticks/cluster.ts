import { addReplayColumns, replayTables } from "./ddl/0007_replay_columns";
import { publishedTableDdl } from "./published";

/**
 * The published tables (./published.ts) on a ClickHouse cluster, derived from their single-node
 * DDL so the two never drift: per table, `<table>_local` (ReplicatedReplacingMergeTree, same columns, key, codecs and
 * index) on every node, and a Distributed `<table>` sharded by cityHash64(market), so a market's
 * rows live on one shard (dedup on merge and force_primary_key keep working).
 */
export function clusterStatements(cluster: string, database: string): string[] {
  const tables = publishedTableDdl.flatMap(({ table, statements }) => {
    const [single] = statements;
    if (single === undefined) throw new Error(`${table} DDL missing`);
    const local = `${table}_local`;
    const localDdl = single
      .replace(`CREATE TABLE IF NOT EXISTS ${table}`, `CREATE TABLE IF NOT EXISTS ${database}.${local} ON CLUSTER ${cluster}`)
      .replace(
        /ENGINE = (Replacing)?MergeTree/,
        (_engine, replacing: string | undefined) =>
          `ENGINE = Replicated${replacing ?? ""}MergeTree('/clickhouse/tables/{shard}/${database}/${local}', '{replica}')`,
      );
    const distributed = `CREATE TABLE IF NOT EXISTS ${database}.${table} ON CLUSTER ${cluster}
  AS ${database}.${local}
  ENGINE = Distributed(${cluster}, ${database}, ${local}, cityHash64(market))`;
    return [localDdl, distributed];
  });
  // The books' replay columns (./ddl/0007_replay_columns.ts) on each node's local table, and on the
  // Distributed table that reads them from the shards.
  const replay = replayTables.flatMap((table) => [
    `ALTER TABLE ${database}.${table}_local ON CLUSTER ${cluster} ${addReplayColumns}`,
    `ALTER TABLE ${database}.${table} ON CLUSTER ${cluster} ${addReplayColumns}`,
  ]);
  return [...tables, ...replay];
}
