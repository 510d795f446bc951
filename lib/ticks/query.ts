import "server-only";
import type { ClickHouseClient } from "@clickhouse/client";
import { inlineParams } from "./chdb-clients";

/**
 * The one way into ClickHouse for the service's reads. A domain function takes a `TickReader`
 * (as drizzle functions take `db`) and runs a statement through `tickRows` / `tickRowStream` /
 * `tickStream` with typed binds:
 *
 *   tickRows<[number]>(ticks, `SELECT ... WHERE market = {market:String} AND timestamp <= {at:DateTime64(3)}`,
 *     { market: bind.string(id), at: bind.time(atMs) })
 *
 * Each `{name:Type}` of the statement must have a bind of that very type, and every bind a
 * placeholder, or the call throws before reaching the engine. How the values reach the engine is
 * hidden here: bound parameters over HTTP; on chDB the read pool inlines them as typed literals
 * (`lib/ticks/chdb-clients.ts`: bound ones queue in chdb-node's one chain); the engine's streaming
 * query, which binds nothing, gets the same typed literals. Times are epoch ms on this side and
 * DateTime64(3) in the engine, converted only in `bind.time`.
 *
 * A TickReader never holds the writer: it reads through the service's read clients (a pool of
 * connections on chDB, a readonly client on a server). Requests get theirs from their context
 * (`lib/http`, `ticks`), background work from the stores it was given (`TickStores.service` or
 * `TickStores.background`).
 */
export interface TickReader {
  /** The read client (opened on first use for a request's reader). */
  client(): Promise<ClickHouseClient>;
  /** The engine's streaming query: a SELECT's result in `format`, chunk by chunk, never whole in memory. */
  streamQuery(query: string, format: string, signal?: AbortSignal): AsyncIterable<Uint8Array>;
  /** The database the tick tables live in. */
  database(): Promise<string>;
}

/** A value with the ClickHouse type its placeholder must declare. */
export interface Bind {
  readonly type: string;
  readonly value: string | number | readonly string[];
}

/** ClickHouse DateTime64(3) text (UTC) from epoch ms: the one conversion of a time into the engine. */
function engineTime(ms: number): string {
  if (!Number.isFinite(ms)) throw new Error("a time bind must be finite epoch milliseconds");
  return new Date(ms).toISOString().replace("T", " ").replace("Z", "");
}

function integer(n: number | string, type: string): Bind {
  if (typeof n === "number" && !Number.isSafeInteger(n)) throw new Error(`a ${type} bind must be a safe integer`);
  if (typeof n === "string" && !/^-?\d{1,20}$/.test(n)) throw new Error(`a ${type} bind must be an integer`);
  return { type, value: n };
}

/** The typed binds. */
export const bind = {
  string: (value: string): Bind => ({ type: "String", value }),
  strings: (value: readonly string[]): Bind => ({ type: "Array(String)", value }),
  uuid: (value: string): Bind => ({ type: "UUID", value }),
  uuids: (value: readonly string[]): Bind => ({ type: "Array(UUID)", value }),
  /** Epoch ms as DateTime64(3). */
  time: (ms: number): Bind => ({ type: "DateTime64(3)", value: engineTime(ms) }),
  uint32: (n: number): Bind => integer(n, "UInt32"),
  int64: (n: number | string): Bind => integer(n, "Int64"),
  uint64: (n: number | string): Bind => integer(n, "UInt64"),
};

export type Binds = Readonly<Record<string, Bind>>;

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*):([^{}]+)\}/g;

/** The statement's placeholders checked against `binds`; the values as the client's query_params. */
export function checkedParams(query: string, binds: Binds = {}): Record<string, unknown> {
  const used = new Set<string>();
  for (const [, name = "", type = ""] of query.matchAll(PLACEHOLDER)) {
    const given = binds[name];
    if (given === undefined) throw new Error(`no bind for {${name}:${type}}`);
    if (given.type !== type.trim()) throw new Error(`{${name}:${type}} is bound as ${given.type}`);
    used.add(name);
  }
  const unused = Object.keys(binds).filter((name) => !used.has(name));
  if (unused.length > 0) throw new Error(`binds without a placeholder: ${unused.join(", ")}`);
  return Object.fromEntries(Object.entries(binds).map(([name, b]) => [name, b.value]));
}

/** Every row of a read, each an array in the statement's column order. */
export async function tickRows<Row extends readonly unknown[]>(ticks: TickReader, query: string, binds?: Binds): Promise<Row[]> {
  const query_params = checkedParams(query, binds);
  const client = await ticks.client();
  const result = await client.query({ query, query_params, format: "JSONCompactEachRow" });
  return result.json<Row>();
}

/** The rows of a read as they arrive (the client's stream of JSON lines), for large results. */
export async function* tickRowStream<Row extends readonly unknown[]>(ticks: TickReader, query: string, binds?: Binds): AsyncGenerator<Row> {
  const query_params = checkedParams(query, binds);
  const client = await ticks.client();
  const result = await client.query({ query, query_params, format: "JSONCompactEachRow" });
  for await (const batch of result.stream<Row>()) for (const line of batch) yield line.json();
}

/** A read's result in an engine `format` (TabSeparatedRaw, Parquet...) through the streaming query; binds become typed literals. */
export function tickStream(ticks: TickReader, query: string, binds: Binds | undefined, format: string, signal?: AbortSignal): AsyncIterable<Uint8Array> {
  return ticks.streamQuery(inlineParams(query, checkedParams(query, binds)), format, signal);
}

/** A TickReader over opened clients. */
export function tickReaderOf(client: ClickHouseClient, streamQuery: TickReader["streamQuery"], database: string): TickReader {
  return { client: () => Promise.resolve(client), streamQuery, database: () => Promise.resolve(database) };
}
