import "server-only";
import { randomUUID } from "node:crypto";
import type { ClickHouseClient } from "@clickhouse/client";
import { ClientClosedRequestError } from "@/lib/errors";
import { getKeyLimits, type KeyLimits } from "@/lib/limits";
import { readerSettings, type TickStores } from "@/lib/ticks";
import { cleanEngineMessage } from "@/lib/ticks/engine-message";
import { SqlRejectedError, SqlTimeoutError } from "./errors";
import { guardSql } from "./guard";
import { FairScheduler } from "./scheduler";

/** Rows one response carries; the reader's `limit` setting enforces it in the engine. */
export const MAX_RESULT_ROWS = 10_000;
/** SQL queries one key (or session) may have running or waiting at once. */
export const MAX_CONCURRENT_PER_KEY = 2;
/** Request body cap of POST /v0/sql. */
export const MAX_SQL_BODY_BYTES = 64 * 1024;

export type SqlFormat = "json" | "csv" | "parquet";

export interface SqlColumn {
  name: string;
  type: string;
}

export interface SqlResult {
  data: Array<Record<string, unknown>>;
  meta: {
    columns: SqlColumn[];
    rows: number;
    rows_capped: boolean;
    /** True when the rows were cut at MAX_RESULT_BYTES of JSON (header x-bytes-capped). */
    bytes_capped: boolean;
    statistics: { elapsed: number; rows_read: number; bytes_read: number };
  };
}

export interface SqlExport {
  body: Uint8Array<ArrayBuffer>;
  contentType: string;
  filename: string;
  rowsCapped: boolean;
  bytesCapped: boolean;
  rows: number;
}

interface EngineJsonCompact {
  meta: SqlColumn[];
  data: unknown[][];
  rows: number;
  rows_before_limit_at_least?: number;
  statistics?: { elapsed?: number; rows_read?: number; bytes_read?: number };
}

/** Bytes of JSON rows one response carries; past it the rows are cut and `bytes_capped` is set. */
export const MAX_RESULT_BYTES = 16 * 1024 * 1024;
/** Longest a query waits for a slot before the answer is 503 with Retry-After. */
export const MAX_SQL_WAIT_MS = 2_000;

const schedulers = new WeakMap<TickStores, FairScheduler<ClickHouseClient>>();

/** The process's fair scheduler over the stores' reader slots (lib/sql/scheduler.ts). */
function schedulerOf(stores: TickStores, keyLimits: KeyLimits): FairScheduler<ClickHouseClient> {
  let scheduler = schedulers.get(stores);
  if (scheduler === undefined) {
    const budgetMs = Number(readerSettings.max_execution_time ?? 5) * 1000;
    scheduler = new FairScheduler(stores.readers, {
      slots: stores.readers.length,
      reservedSlots: 1,
      perKey: MAX_CONCURRENT_PER_KEY,
      maxWaitMs: MAX_SQL_WAIT_MS,
      maxQueued: 64,
      windowMs: 60_000,
      heavyMs: 1_000,
      taskBudgetMs: budgetMs,
      keyLimits,
    });
    schedulers.set(stores, scheduler);
  }
  return scheduler;
}

/**
 * Runs one task on a reader slot. chDB keeps the partial output of a query cancelled mid-way and
 * prepends it to the next result on the same connection, so after any failure the slot's
 * connection is drained before it is handed on.
 */
async function onSlot<T>(stores: TickStores, reader: ClickHouseClient, task: () => Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (error) {
    if (stores.engine === "chdb") await drain(reader);
    throw error;
  }
}

function mapEngineError(error: unknown): never {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === "159" || /Timeout exceeded/i.test(message)) {
    throw new SqlTimeoutError(Number(readerSettings.max_execution_time ?? 5));
  }
  if (code === "277" || /force_primary_key/.test(message)) {
    throw new SqlRejectedError(
      "Filter by market: every query on a tick table needs a `market = '…'` (or IN) condition: the condition id on polymarket_orderbook_rust, the market ticker on kalshi_orderbook.",
      "market_filter",
    );
  }
  if (code === "241" || /Memory limit/i.test(message)) {
    throw new SqlRejectedError("The query needs more memory than a request may use; narrow it.", "memory_limit");
  }
  if (code === "158" || code === "307" || /Limit for rows|Limit for \(uncompressed\) bytes/i.test(message)) {
    throw new SqlRejectedError("The query reads more rows than a request may; narrow the time window.", "read_limit");
  }
  if (/^\d+$/.test(String(code ?? ""))) {
    throw new SqlRejectedError(`The engine refused the query: ${cleanEngineMessage(message)}`, "engine");
  }
  throw error;
}

/**
 * Runs the guarded statement, tagged so it can be found in system.processes; when the client goes
 * away the query is killed in the engine (KILL QUERY works on chDB and on a server alike), so an
 * abandoned query frees its slot and its key at once instead of running to its time limit.
 */
async function runEngine(stores: TickStores, reader: ClickHouseClient, sql: string, signal: AbortSignal | undefined): Promise<string> {
  const tag = randomUUID();
  const kill = () => {
    void stores.writer
      .command({ query: "KILL QUERY WHERE startsWith(query, concat('/* brier-sql:', {tag:String})) ASYNC", query_params: { tag } })
      .catch(() => undefined);
  };
  signal?.addEventListener("abort", kill, { once: true });
  try {
    if (signal?.aborted) throw new ClientClosedRequestError();
    const result = await reader.query({ query: `/* brier-sql:${tag} */ ${sql}`, format: "JSONCompact" });
    return await result.text();
  } catch (error) {
    if (signal?.aborted) throw new ClientClosedRequestError();
    return mapEngineError(error);
  } finally {
    signal?.removeEventListener("abort", kill);
  }
}

async function drain(reader: ClickHouseClient): Promise<void> {
  try {
    await (await reader.query({ query: "SELECT 1", format: "TabSeparated" })).text();
  } catch {
    // The next query will surface a broken connection.
  }
}

/**
 * Guards and runs one user statement on a fair share of the engine (lib/sql/scheduler.ts); the
 * result is capped at MAX_RESULT_ROWS and MAX_RESULT_BYTES, each flagged. `signal` is the
 * request's: when the client disconnects, a waiting query leaves the queue and a running one is killed.
 */
export async function runSqlQuery(stores: TickStores, callerKey: string, query: string, signal?: AbortSignal): Promise<SqlResult> {
  return schedulerOf(stores, await getKeyLimits()).run(callerKey, signal, (reader, taskSignal) =>
    onSlot(stores, reader, async () => {
      const guarded = await guardSql(reader, query, stores.database);
      return shape(await runEngine(stores, reader, guarded.sql, taskSignal));
    }),
  );
}

function shape(text: string): SqlResult {
  const raw = JSON.parse(text) as EngineJsonCompact;
  let rows = raw.data.slice(0, MAX_RESULT_ROWS);
  const capped = raw.data.length > MAX_RESULT_ROWS || (rows.length === MAX_RESULT_ROWS && (raw.rows_before_limit_at_least ?? 0) > MAX_RESULT_ROWS);
  // The engine stops producing past max_result_bytes (a block over); the response keeps whole rows up to MAX_RESULT_BYTES.
  let bytes = 0;
  let kept = rows.length;
  for (let i = 0; i < rows.length; i += 1) {
    bytes += JSON.stringify(rows[i]).length + 1;
    if (bytes > MAX_RESULT_BYTES) {
      kept = i;
      break;
    }
  }
  const bytesCapped = kept < rows.length || text.length > 2 * MAX_RESULT_BYTES;
  rows = rows.slice(0, kept);
  return {
    data: rows.map((row) => Object.fromEntries(raw.meta.map((column, i) => [column.name, row[i]]))),
    meta: {
      columns: raw.meta.map((column) => ({ name: column.name, type: column.type })),
      rows: rows.length,
      rows_capped: capped,
      bytes_capped: bytesCapped,
      statistics: {
        elapsed: raw.statistics?.elapsed ?? 0,
        rows_read: raw.statistics?.rows_read ?? 0,
        bytes_read: raw.statistics?.bytes_read ?? 0,
      },
    },
  };
}

/**
 * The same capped result as a CSV or Parquet download. The engine encodes it from the rows
 * already fetched (bound as data, never as SQL), so an export can never differ from, or exceed,
 * the JSON answer.
 */
export async function exportSqlQuery(
  stores: TickStores,
  callerKey: string,
  query: string,
  format: "csv" | "parquet",
  signal?: AbortSignal,
): Promise<SqlExport> {
  const result = await runSqlQuery(stores, callerKey, query, signal);
  const structure = result.meta.columns.map((column) => `${quoteName(column.name)} ${utcType(column.type)}`).join(", ");
  const rows = result.data.map((row) => JSON.stringify(result.meta.columns.map((column) => row[column.name]))).join("\n");
  const engineFormat = format === "csv" ? "CSVWithNames" : "Parquet";
  let body: Uint8Array<ArrayBuffer>;
  if (result.meta.columns.length === 0) body = new Uint8Array();
  else {
    // A read: on the service's read clients (read-only), never the writer.
    const exec = await stores.queries.exec({
      query: `SELECT * FROM format(JSONCompactEachRow, {structure:String}, {rows:String}) FORMAT ${engineFormat}`,
      query_params: { structure, rows },
    });
    const chunks: Buffer[] = [];
    for await (const chunk of exec.stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
    body = new Uint8Array(Buffer.concat(chunks));
  }
  return {
    body,
    contentType: format === "csv" ? "text/csv; charset=utf-8" : "application/vnd.apache.parquet",
    filename: `brier-sql.${format}`,
    rowsCapped: result.meta.rows_capped,
    bytesCapped: result.meta.bytes_capped,
    rows: result.meta.rows,
  };
}

function quoteName(name: string): string {
  return `\`${name.replace(/\\/g, "\\\\").replace(/`/g, "\\`")}\``;
}

/** DateTime types without a zone are rendered in UTC by the reader; say so to the encoder. */
function utcType(type: string): string {
  if (type === "DateTime") return "DateTime('UTC')";
  const dt64 = /^DateTime64\((\d+)\)$/.exec(type);
  if (dt64 !== null) return `DateTime64(${dt64[1]}, 'UTC')`;
  return type;
}
