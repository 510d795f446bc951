import "server-only";
import type { ClickHouseClient } from "@clickhouse/client";
import type { BookData, BookRow } from "@/lib/books/book-state";
import { AppError } from "@/lib/errors";
import { getTickStores } from "@/lib/ticks";
import { tickTable } from "@/lib/ticks/ddl/0001_polymarket_orderbook";
import { kalshiTable } from "@/lib/ticks/ddl/0004_kalshi_orderbook";
import type { TickSource } from "./outcomes";

/**
 * Reads of the tick table for history. They run on the service's own reads (`TickStores.queries`,
 * not the SQL reader: its engine limits cap every result at 10,000 rows), always with the `market`
 * filter of the table's primary key, an asset filter and time bounds, and bounded by LIMIT.
 */

/** Most rows one replay reads; beyond it the request is refused rather than run unbounded. */
export const MAX_REPLAY_ROWS = 2_000_000;

/** ClickHouse DateTime64(3) literal parameter from epoch ms. */
export function chTime(ms: number): string {
  return new Date(ms).toISOString().replace("T", " ").replace("Z", "");
}

export async function historyClient(): Promise<ClickHouseClient> {
  return (await getTickStores()).queries;
}

/** The venue time of the last `book` of the asset at or before `atMs` (reads the market's rows newest first, stops at the first). */
export async function lastBookAtOrBefore(client: ClickHouseClient, source: TickSource, assetId: string, atMs: number): Promise<number | undefined> {
  const result = await client.query({
    query: `SELECT toUnixTimestamp64Milli(timestamp) AS ts FROM ${source.table}
      WHERE market = {market:String} AND event_type = 'book' AND timestamp <= {at:DateTime64(3)}
        AND JSONExtractString(data, 'asset_id') = {asset:String}
      ORDER BY timestamp DESC LIMIT 1`,
    query_params: { market: source.conditionId, asset: assetId, at: chTime(atMs) },
    format: "JSONCompactEachRow",
  });
  const rows = await result.json<[number | string]>();
  const ts = rows[0]?.[0];
  return ts === undefined ? undefined : Number(ts);
}

/** The venue time of the first `book` of the asset after `afterMs` and at or before `untilMs`. */
export async function firstBookAfter(client: ClickHouseClient, source: TickSource, assetId: string, afterMs: number, untilMs: number): Promise<number | undefined> {
  const result = await client.query({
    query: `SELECT toUnixTimestamp64Milli(timestamp) AS ts FROM ${source.table}
      WHERE market = {market:String} AND event_type = 'book' AND timestamp > {after:DateTime64(3)} AND timestamp <= {until:DateTime64(3)}
        AND JSONExtractString(data, 'asset_id') = {asset:String}
      ORDER BY timestamp LIMIT 1`,
    query_params: { market: source.conditionId, asset: assetId, after: chTime(afterMs), until: chTime(untilMs) },
    format: "JSONCompactEachRow",
  });
  const rows = await result.json<[number | string]>();
  const ts = rows[0]?.[0];
  return ts === undefined ? undefined : Number(ts);
}

/**
 * The asset's `book` and `price_change` rows with fromMs <= timestamp <= toMs, in replay order:
 * venue time, then the table's own tie order (`book` before `price_change`, then cityHash64(data)).
 */
export function bookRows(client: ClickHouseClient, source: TickSource, assetId: string, fromMs: number, toMs: number): AsyncGenerator<BookRow> {
  return replayRows(client, source, `timestamp >= {from:DateTime64(3)}`, { market: source.conditionId, asset: assetId, from: chTime(fromMs), to: chTime(toMs) });
}

/**
 * `bookRows` from the asset's last `book` at or before `toMs` (the first row is that book), in one
 * read: a lookup of the snapshot's time and then the rows took two turns of the service's chDB read
 * pool, and under a crowd each turn is a wait (issue 27's load bench: the book route's p50 was
 * twice the other history routes'). Empty when no book was recorded at or before `toMs`.
 */
export function bookRowsFromLastBook(client: ClickHouseClient, source: TickSource, assetId: string, toMs: number): AsyncGenerator<BookRow> {
  const lastBook = `(SELECT maxOrNull(timestamp) FROM ${source.table}
        WHERE market = {market:String} AND event_type = 'book' AND timestamp <= {to:DateTime64(3)} AND JSONExtractString(data, 'asset_id') = {asset:String})`;
  return replayRows(client, source, `timestamp >= ${lastBook}`, { market: source.conditionId, asset: assetId, to: chTime(toMs) });
}

async function* replayRows(client: ClickHouseClient, source: TickSource, from: string, params: Record<string, string>): AsyncGenerator<BookRow> {
  const result = await client.query({
    query: `SELECT toUnixTimestamp64Milli(timestamp) AS ts, event_type, data FROM ${source.table}
      WHERE market = {market:String} AND ${from} AND timestamp <= {to:DateTime64(3)}
        AND event_type IN ('book', 'price_change') AND JSONExtractString(data, 'asset_id') = {asset:String}
      ORDER BY timestamp, event_type, cityHash64(data)
      LIMIT {limit:UInt32}`,
    query_params: { ...params, limit: MAX_REPLAY_ROWS + 1 },
    format: "JSONCompactEachRow",
  });
  let count = 0;
  for await (const batch of result.stream<[number | string, string, string]>()) {
    for (const line of batch) {
      count += 1;
      if (count > MAX_REPLAY_ROWS) {
        throw new AppError("query_error", `More than ${MAX_REPLAY_ROWS} recorded events between the last snapshot and the requested time; ask for a shorter span.`);
      }
      const [ts, eventType, data] = line.json();
      yield { timestampMs: Number(ts), market: source.conditionId, eventType, data };
    }
  }
}

/** What a streamed query may carry as a literal: the catalog's ids (condition ids, tickers, token ids) have no other characters. */
const SAFE_LITERAL = /^[A-Za-z0-9_.:-]{1,200}$/;

function literal(value: string): string {
  if (!SAFE_LITERAL.test(value)) throw new AppError("not_found", "This market's id cannot be read from the tick table.", { resource: "order book" });
  return `'${value}'`;
}

/** One side of a merged replay: an asset of a market, its rows from `fromMs`. */
export interface ReplaySide {
  source: TickSource;
  assetId: string;
  fromMs: number;
}

/**
 * The book rows of several assets (each from its own start, up to `toMs`) as one stream merged
 * by the engine in venue-time order, each row with the index of its side and parsed once, with
 * bounded memory, for long replays (lib/spreads: a day of a busy book is a million rows). Within a
 * side the order is `bookRows`'s (time, `book` before `price_change`, then cityHash64(data)).
 *
 * The engine writes each row as one JSON text `[ts,side,"event_type",data]` (`data` is already
 * JSON, so TabSeparatedRaw's lines are JSON arrays) and `data` reaches the book state parsed
 * (BookRow.parsed), instead of a JSON line whose `data` string is parsed a second time. It runs
 * on the engine's streaming query (TickStores.streamQuery: chDB's queryStream, or the server's
 * HTTP stream), which hands over chunks as the engine produces them: the buffered client query
 * held the whole result (measured: 320 MB of Node heap for a day of two 1M-row books), and one
 * merged query takes one of the embedded engine's stream slots, not one per side. That query
 * takes no parameter binds, so the ids go in as literals, allowed only when they are made of the
 * characters catalog ids are made of (no quote or backslash can reach the SQL); times are integers.
 */
export async function* mergedBookRows(sides: readonly ReplaySide[], toMs: number): AsyncGenerator<{ side: number; row: BookRow }> {
  const parts = sides.map(({ source, assetId, fromMs }, index) => {
    const table = source.table === tickTable || source.table === kalshiTable ? source.table : undefined;
    if (table === undefined) throw new AppError("not_found", "Not a recorded venue's table.", { resource: "order book" });
    return `SELECT timestamp, ${index} AS side, event_type, data FROM ${table}
      WHERE market = ${literal(source.conditionId)} AND timestamp >= fromUnixTimestamp64Milli(toInt64(${Math.floor(fromMs)})) AND timestamp <= fromUnixTimestamp64Milli(toInt64(${Math.floor(toMs)}))
        AND event_type IN ('book', 'price_change') AND JSONExtractString(data, 'asset_id') = ${literal(assetId)}`;
  });
  const query = `SELECT concat('[', toString(toUnixTimestamp64Milli(timestamp)), ',', toString(side), ',"', event_type, '",', data, ']')
    FROM (${parts.join(" UNION ALL ")}) ORDER BY timestamp, side, event_type, cityHash64(data) LIMIT ${sides.length * MAX_REPLAY_ROWS + 1}`;
  const markets = sides.map((side) => side.source.conditionId);
  const decoder = new TextDecoder();
  let carry = "";
  let count = 0;
  const row = (line: string): { side: number; row: BookRow } => {
    count += 1;
    if (count > sides.length * MAX_REPLAY_ROWS) {
      throw new AppError("query_error", `More than ${MAX_REPLAY_ROWS} recorded events a book between the last snapshot and the requested time; ask for a shorter span.`);
    }
    const [ts, side, eventType, parsed] = JSON.parse(line) as [number, number, string, BookData];
    return { side, row: { timestampMs: ts, market: markets[side] ?? "", eventType, data: "", parsed } };
  };
  for await (const chunk of (await getTickStores()).streamQuery(query, "TabSeparatedRaw")) {
    const lines = (carry + decoder.decode(chunk, { stream: true })).split("\n");
    carry = lines.pop() ?? "";
    for (const line of lines) if (line !== "") yield row(line);
  }
  carry += decoder.decode();
  if (carry !== "") yield row(carry);
}
