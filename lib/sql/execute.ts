import "server-only";
import type { ClickHouseClient } from "@clickhouse/client";
import { AppError } from "@/lib/errors";
import { readerSettings, type TickStores } from "@/lib/ticks";
import { SqlRejectedError, SqlTimeoutError } from "./errors";
import { guardSql } from "./guard";

/** Rows one response carries; the reader's `limit` setting enforces it in the engine. */
export const MAX_RESULT_ROWS = 10_000;
/** SQL queries one key (or session) may have running at once. */
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
    statistics: { elapsed: number; rows_read: number; bytes_read: number };
  };
}

export interface SqlExport {
  body: Uint8Array<ArrayBuffer>;
  contentType: string;
  filename: string;
  rowsCapped: boolean;
  rows: number;
}

interface EngineJsonCompact {
  meta: SqlColumn[];
  data: unknown[][];
  rows: number;
  rows_before_limit_at_least?: number;
  statistics?: { elapsed?: number; rows_read?: number; bytes_read?: number };
}

const running = new Map<string, number>();

let readerQueue: Promise<unknown> = Promise.resolve();

/**
 * chDB: one statement at a time on the reader connection, guard queries included. chDB keeps the
 * partial output of a query cancelled mid-way (a timeout) and prepends it to the next result on
 * the same connection, so after any failure the connection is drained before the next caller.
 */
function serialized<T>(stores: TickStores, task: () => Promise<T>): Promise<T> {
  if (stores.engine !== "chdb") return task();
  const guardedTask = async () => {
    try {
      return await task();
    } catch (error) {
      await drain(stores.reader);
      throw error;
    }
  };
  const next = readerQueue.then(guardedTask, guardedTask);
  readerQueue = next.catch(() => undefined);
  return next;
}

function mapEngineError(error: unknown): never {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === "159" || /Timeout exceeded/i.test(message)) {
    throw new SqlTimeoutError(Number(readerSettings.max_execution_time ?? 5));
  }
  if (code === "277" || /force_primary_key/.test(message)) {
    throw new SqlRejectedError(
      "Filter by market: every query on polymarket_orderbook_rust needs a `market = '<condition id>'` (or IN) condition.",
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
    const clean = message.replace(/^Code: \d+\. /, "").replace(/^DB::Exception: /, "").replace(/\s*\([A-Z_]+\)\s*$/, "");
    throw new SqlRejectedError(`The engine refused the query: ${clean}`, "engine");
  }
  throw error;
}

async function runEngine(stores: TickStores, sql: string): Promise<EngineJsonCompact> {
  try {
    const result = await stores.reader.query({ query: sql, format: "JSONCompact" });
    return (await result.json()) as EngineJsonCompact;
  } catch (error) {
    return mapEngineError(error);
  }
}

async function drain(reader: ClickHouseClient): Promise<void> {
  try {
    await (await reader.query({ query: "SELECT 1", format: "TabSeparated" })).text();
  } catch {
    // The next query will surface a broken connection.
  }
}

async function withConcurrencyCap<T>(callerKey: string, task: () => Promise<T>): Promise<T> {
  const current = running.get(callerKey) ?? 0;
  if (current >= MAX_CONCURRENT_PER_KEY) {
    throw new AppError("rate_limited", `At most ${MAX_CONCURRENT_PER_KEY} SQL queries may run at once per key; retry when one finishes.`, {
      retryAfter: 1,
    });
  }
  running.set(callerKey, current + 1);
  try {
    return await task();
  } finally {
    const left = (running.get(callerKey) ?? 1) - 1;
    if (left <= 0) running.delete(callerKey);
    else running.set(callerKey, left);
  }
}

/** Guards and runs one user statement; the result is capped at MAX_RESULT_ROWS and flagged. */
export async function runSqlQuery(stores: TickStores, callerKey: string, query: string): Promise<SqlResult> {
  return withConcurrencyCap(callerKey, () =>
    serialized(stores, async () => {
      const guarded = await guardSql(stores.reader, query, stores.database);
      return shape(await runEngine(stores, guarded.sql));
    }),
  );
}

function shape(raw: EngineJsonCompact): SqlResult {
  const rows = raw.data.slice(0, MAX_RESULT_ROWS);
  const capped = raw.data.length > MAX_RESULT_ROWS || (rows.length === MAX_RESULT_ROWS && (raw.rows_before_limit_at_least ?? 0) > MAX_RESULT_ROWS);
  return {
    data: rows.map((row) => Object.fromEntries(raw.meta.map((column, i) => [column.name, row[i]]))),
    meta: {
      columns: raw.meta.map((column) => ({ name: column.name, type: column.type })),
      rows: rows.length,
      rows_capped: capped,
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
export async function exportSqlQuery(stores: TickStores, callerKey: string, query: string, format: "csv" | "parquet"): Promise<SqlExport> {
  const result = await runSqlQuery(stores, callerKey, query);
  const structure = result.meta.columns.map((column) => `${quoteName(column.name)} ${utcType(column.type)}`).join(", ");
  const rows = result.data.map((row) => JSON.stringify(result.meta.columns.map((column) => row[column.name]))).join("\n");
  const engineFormat = format === "csv" ? "CSVWithNames" : "Parquet";
  let body: Uint8Array<ArrayBuffer>;
  if (result.meta.columns.length === 0) body = new Uint8Array();
  else {
    const exec = await stores.writer.exec({
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
