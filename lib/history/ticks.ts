import "server-only";
import type { BookData, BookRow } from "@/lib/books/book-state";
import { AppError } from "@/lib/errors";
import { bind, tickRows, tickRowStream, tickStream, type Bind, type Binds, type TickReader } from "@/lib/ticks";
import { venueOfTable } from "@/lib/recorder/registry";
import type { TickSource } from "./outcomes";

/**
 * Reads of the tick table for history. They run on the service's own reads (`TickStores.queries`,
 * not the SQL reader: its engine limits cap every result at 10,000 rows), always with the `market`
 * filter of the table's primary key, an asset filter and time bounds, and bounded by LIMIT.
 */

/** Most rows one replay reads; beyond it the request is refused rather than run unbounded. */
export const MAX_REPLAY_ROWS = 2_000_000;


/** The venue time of the last `book` of the asset at or before `atMs` (reads the market's rows newest first, stops at the first). */
export async function lastBookAtOrBefore(ticks: TickReader, source: TickSource, assetId: string, atMs: number): Promise<number | undefined> {
  const rows = await tickRows<[number | string]>(
    ticks,
    `SELECT toUnixTimestamp64Milli(timestamp) AS ts FROM ${source.table}
      WHERE market = {market:String} AND event_type = 'book' AND timestamp <= {at:DateTime64(3)}
        AND JSONExtractString(data, 'asset_id') = {asset:String}
      ORDER BY timestamp DESC LIMIT 1`,
    { market: bind.string(source.conditionId), asset: bind.string(assetId), at: bind.time(atMs) },
  );
  const ts = rows[0]?.[0];
  return ts === undefined ? undefined : Number(ts);
}

/** The venue time of the first `book` of the asset after `afterMs` and at or before `untilMs`. */
export async function firstBookAfter(ticks: TickReader, source: TickSource, assetId: string, afterMs: number, untilMs: number): Promise<number | undefined> {
  const rows = await tickRows<[number | string]>(
    ticks,
    `SELECT toUnixTimestamp64Milli(timestamp) AS ts FROM ${source.table}
      WHERE market = {market:String} AND event_type = 'book' AND timestamp > {after:DateTime64(3)} AND timestamp <= {until:DateTime64(3)}
        AND JSONExtractString(data, 'asset_id') = {asset:String}
      ORDER BY timestamp LIMIT 1`,
    { market: bind.string(source.conditionId), asset: bind.string(assetId), after: bind.time(afterMs), until: bind.time(untilMs) },
  );
  const ts = rows[0]?.[0];
  return ts === undefined ? undefined : Number(ts);
}

/**
 * The asset's `book` and `price_change` rows with fromMs <= timestamp <= toMs, in replay order:
 * venue time, then the table's own tie order (`book` before `price_change`, then cityHash64(data)).
 */
export function bookRows(ticks: TickReader, source: TickSource, assetId: string, fromMs: number, toMs: number): AsyncGenerator<BookRow> {
  return replayRows(ticks, source, `timestamp >= {from:DateTime64(3)}`, { market: bind.string(source.conditionId), asset: bind.string(assetId), from: bind.time(fromMs), to: bind.time(toMs) });
}

/**
 * `bookRows` from the asset's last `book` at or before `toMs` (the first row is that book), in one
 * read: a lookup of the snapshot's time and then the rows took two turns of the service's chDB read
 * pool, and under a crowd each turn is a wait (issue 27's load bench: the book route's p50 was
 * twice the other history routes'). Empty when no book was recorded at or before `toMs`.
 */
export function bookRowsFromLastBook(ticks: TickReader, source: TickSource, assetId: string, toMs: number): AsyncGenerator<BookRow> {
  const lastBook = `(SELECT maxOrNull(timestamp) FROM ${source.table}
        WHERE market = {market:String} AND event_type = 'book' AND timestamp <= {to:DateTime64(3)} AND JSONExtractString(data, 'asset_id') = {asset:String})`;
  return replayRows(ticks, source, `timestamp >= ${lastBook}`, { market: bind.string(source.conditionId), asset: bind.string(assetId), to: bind.time(toMs) });
}

async function* replayRows(ticks: TickReader, source: TickSource, from: string, binds: Binds): AsyncGenerator<BookRow> {
  const rows = tickRowStream<[number | string, string, string]>(
    ticks,
    `SELECT toUnixTimestamp64Milli(timestamp) AS ts, event_type, data FROM ${source.table}
      WHERE market = {market:String} AND ${from} AND timestamp <= {to:DateTime64(3)}
        AND event_type IN ('book', 'price_change') AND JSONExtractString(data, 'asset_id') = {asset:String}
      ORDER BY timestamp, event_type, cityHash64(data)
      LIMIT {limit:UInt32}`,
    { ...binds, limit: bind.uint32(MAX_REPLAY_ROWS + 1) },
  );
  let count = 0;
  for await (const [ts, eventType, data] of rows) {
    count += 1;
    if (count > MAX_REPLAY_ROWS) {
      throw new AppError("query_error", `More than ${MAX_REPLAY_ROWS} recorded events between the last snapshot and the requested time; ask for a shorter span.`);
    }
    yield { timestampMs: Number(ts), market: source.conditionId, eventType, data };
  }
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
 * merged query takes one of the embedded engine's stream slots, not one per side. The streaming
 * query binds nothing: `tickStream` turns the typed binds into typed literals (lib/ticks/query.ts).
 */
export async function* mergedBookRows(ticks: TickReader, sides: readonly ReplaySide[], toMs: number): AsyncGenerator<{ side: number; row: BookRow }> {
  const binds: Record<string, Bind> = { to: bind.time(Math.floor(toMs)), limit: bind.uint32(sides.length * MAX_REPLAY_ROWS + 1) };
  const parts = sides.map(({ source, assetId, fromMs }, index) => {
    const table = venueOfTable(source.table)?.table;
    if (table === undefined) throw new AppError("not_found", "Not a recorded venue's table.", { resource: "order book" });
    binds[`market${index}`] = bind.string(source.conditionId);
    binds[`asset${index}`] = bind.string(assetId);
    binds[`from${index}`] = bind.time(Math.floor(fromMs));
    return `SELECT timestamp, ${index} AS side, event_type, data FROM ${table}
      WHERE market = {market${index}:String} AND timestamp >= {from${index}:DateTime64(3)} AND timestamp <= {to:DateTime64(3)}
        AND event_type IN ('book', 'price_change') AND JSONExtractString(data, 'asset_id') = {asset${index}:String}`;
  });
  const query = `SELECT concat('[', toString(toUnixTimestamp64Milli(timestamp)), ',', toString(side), ',"', event_type, '",', data, ']')
    FROM (${parts.join(" UNION ALL ")}) ORDER BY timestamp, side, event_type, cityHash64(data) LIMIT {limit:UInt32}`;
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
  for await (const chunk of tickStream(ticks, query, binds, "TabSeparatedRaw")) {
    const lines = (carry + decoder.decode(chunk, { stream: true })).split("\n");
    carry = lines.pop() ?? "";
    for (const line of lines) if (line !== "") yield row(line);
  }
  carry += decoder.decode();
  if (carry !== "") yield row(carry);
}
