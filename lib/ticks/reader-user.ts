import { createHash } from "node:crypto";
import { readerSettings } from "./client";
import { publishedTables } from "./published";

export interface ReaderUserOptions {
  /** The reader's user name (CLICKHOUSE_READER_USER). */
  user: string;
  /** Its password; only its SHA-256 goes into the DDL. */
  password: string;
  /** The published database (CLICKHOUSE_DATABASE). */
  database: string;
  /** Cluster name when the tick table is Distributed (npm run cluster-ddl). */
  cluster?: string | undefined;
}

const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The engine limits the reader sends, pinned as upper bounds in the user's profile. */
const pinned = ["max_execution_time", "max_memory_usage", "max_rows_to_read", "max_bytes_to_read", "max_result_rows", "max_result_bytes"] as const;

/**
 * DDL of the dedicated SQL reader on a ClickHouse server (docs/ticks.md, "Reader user"): a user
 * whose only grant is SELECT on the published tables, readonly=2 (it may send its per-request
 * limits but never write, and cannot change readonly), with every limit it sends capped in its
 * profile, so even a guard bug can neither read an internal table nor lift a limit.
 */
export function readerUserStatements(options: ReaderUserOptions): string[] {
  for (const name of [options.user, options.database, options.cluster ?? "x"]) {
    if (!identifier.test(name)) throw new Error(`${name} is not a plain identifier`);
  }
  const onCluster = options.cluster === undefined ? "" : ` ON CLUSTER ${options.cluster}`;
  const hash = createHash("sha256").update(options.password).digest("hex");
  const limits = pinned
    .filter((name) => readerSettings[name] !== undefined)
    .map((name) => `${name} = ${String(readerSettings[name])} MAX ${String(readerSettings[name])}`);
  const tables = publishedTables.flatMap((table) => (options.cluster === undefined ? [table] : [table, `${table}_local`]));
  return [
    `CREATE USER IF NOT EXISTS ${options.user}${onCluster} IDENTIFIED WITH sha256_hash BY '${hash}'
  DEFAULT DATABASE ${options.database}
  SETTINGS readonly = 2, force_primary_key = 1 CONST, ${limits.join(", ")}`,
    `REVOKE${onCluster} ALL ON *.* FROM ${options.user}`,
    ...tables.map((table) => `GRANT${onCluster} SELECT ON ${options.database}.${table} TO ${options.user}`),
  ];
}
