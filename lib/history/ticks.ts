import "server-only";
import type { BookRow } from "@/lib/books/book-state";
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

/**
 * `lastBookAtOrBefore` of several instants in one read (undefined where none): each instant's
 * lookup reads the market's rows newest first and stops at the first, as one does.
 */
export async function lastBooksAtOrBefore(ticks: TickReader, source: TickSource, assetId: string, atMs: readonly number[]): Promise<(number | undefined)[]> {
  if (atMs.length === 0) return [];
  const binds: Record<string, Bind> = { market: bind.string(source.conditionId), asset: bind.string(assetId) };
  const lookups = atMs.map((at, i) => {
    binds[`at${i}`] = bind.time(at);
    return `SELECT ${i} AS i, ts FROM (SELECT toUnixTimestamp64Milli(timestamp) AS ts FROM ${source.table}
      WHERE market = {market:String} AND event_type = 'book' AND timestamp <= {at${i}:DateTime64(3)}
        AND JSONExtractString(data, 'asset_id') = {asset:String}
      ORDER BY timestamp DESC LIMIT 1)`;
  });
  const rows = await tickRows<[number | string, number | string]>(ticks, lookups.join("\nUNION ALL\n"), binds);
  const found = new Map(rows.map(([i, ts]) => [Number(i), Number(ts)]));
  return atMs.map((_, i) => found.get(i));
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

/** Text of the merged stream parsed at a time (a few thousand rows). */
const BATCH_CHARS = 512 * 1024;

/** One side of a merged replay: an asset of a market, its rows from `fromMs`. */
export interface ReplaySide {
  source: TickSource;
  assetId: string;
  fromMs: number;
  /** The `side` its rows carry (default: its index in the list). */
  side?: number;
}

/**
 * A row of a merged replay, as the engine wrote it: positional, only the fields of `data` a book
 * replay reads, each as the document held it (null where it lacks one). A snapshot
 * `[ts, side, 1, bids, asks]`; a change `[ts, side, 0, bookSide, price, size, best_bid, best_ask]`.
 * lib/books reads them as it reads the document (`BookStore.apply`: a field that is not a string is
 * not used).
 */
export type MergedBookRow =
  | readonly [timestampMs: number, side: number, kind: 1, bids: unknown, asks: unknown]
  | readonly [timestampMs: number, side: number, kind: 0, bookSide: unknown, price: unknown, size: unknown, bestBid: unknown, bestAsk: unknown];

/**
 * The book rows of several assets (each from its own start, up to `toMs`) as one stream merged
 * by the engine in venue-time order, each row with its side, with bounded memory, for long
 * replays (lib/spreads: a day of a busy book is a million rows), a batch at a time. Within a
 * side the order is `bookRows`'s (time, `book` before `price_change`, then cityHash64(data)).
 *
 * The engine writes each row as one short JSON array (`MergedBookRow`: the fields a replay reads,
 * read from `data` in one pass, not the whole document with its hash and asset id), so
 * TabSeparatedRaw's lines are JSON arrays and a raw newline can only end a row: up to
 * BATCH_CHARS of complete lines are parsed by one `JSON.parse` as one array, and the arrays are
 * the rows (no object built per row). It runs on the
 * engine's streaming query (TickStores.streamQuery: chDB's queryStream, or the server's HTTP
 * stream), which hands over chunks as the engine produces them: the buffered client query held
 * the whole result (measured: 320 MB of Node heap for a day of two 1M-row books), and one merged
 * query takes one of the embedded engine's stream slots, not one per side. The streaming query
 * binds nothing: `tickStream` turns the typed binds into typed literals (lib/ticks/query.ts).
 */
export async function* mergedBookRows(ticks: TickReader, sides: readonly ReplaySide[], toMs: number): AsyncGenerator<MergedBookRow[]> {
  const { query, binds } = mergedBookQuery(sides, toMs);
  const decoder = new TextDecoder();
  let carry = "";
  let count = 0;
  const parse = (lines: string): MergedBookRow[] => {
    const parsed = JSON.parse(`[${lines.replaceAll("\n", ",")}]`) as MergedBookRow[];
    count += parsed.length;
    if (count > sides.length * MAX_REPLAY_ROWS) {
      throw new AppError("query_error", `More than ${MAX_REPLAY_ROWS} recorded events a book between the last snapshot and the requested time; ask for a shorter span.`);
    }
    return parsed;
  };
  for await (const chunk of tickStream(ticks, query, binds, "TabSeparatedRaw")) {
    const text = carry + decoder.decode(chunk, { stream: true });
    // At most BATCH_CHARS of the chunk parsed at a time, cut at a row's end: an engine chunk can
    // hold tens of thousands of rows, and only one batch of them is held parsed.
    let start = 0;
    for (;;) {
      let end = text.lastIndexOf("\n", start + BATCH_CHARS);
      // A row longer than a batch: up to its own end.
      if (end < start) end = text.indexOf("\n", start);
      if (end < 0) break;
      if (end > start) yield parse(text.slice(start, end));
      start = end + 1;
    }
    carry = text.slice(start);
  }
  carry += decoder.decode();
  if (carry !== "") yield parse(carry);
}

/**
 * `mergedBookRows`' statement and binds, its rows as TabSeparatedRaw lines of JSON arrays: for
 * the bench, which times the engine's part of a replay alone (scripts/bench/spread.ts, `--stages`).
 */
export function mergedBookQuery(sides: readonly ReplaySide[], toMs: number): { query: string; binds: Record<string, Bind> } {
  const binds: Record<string, Bind> = { to: bind.time(Math.floor(toMs)), limit: bind.uint32(sides.length * MAX_REPLAY_ROWS + 1) };
  const parts = sides.map(({ source, assetId, fromMs, side }, index) => {
    const table = venueOfTable(source.table)?.table;
    if (table === undefined) throw new AppError("not_found", "Not a recorded venue's table.", { resource: "order book" });
    binds[`market${index}`] = bind.string(source.conditionId);
    binds[`asset${index}`] = bind.string(assetId);
    binds[`from${index}`] = bind.time(Math.floor(fromMs));
    return `SELECT timestamp, ${Math.trunc(side ?? index)} AS side, event_type, data FROM ${table}
      WHERE market = {market${index}:String} AND timestamp >= {from${index}:DateTime64(3)} AND timestamp <= {to:DateTime64(3)}
        AND event_type IN ('book', 'price_change') AND JSONExtractString(data, 'asset_id') = {asset${index}:String}`;
  });
  // One parse of each row's document: its fields as raw JSON (a string keeps its quotes), so
  // what the engine writes is what the document held, and "null" for a field it lacks.
  const field = (name: string) => `if(mapContains(m, '${name}'), m['${name}'], 'null')`;
  const head = `'[', toString(toUnixTimestamp64Milli(timestamp)), ',', toString(side)`;
  const query = `SELECT if(event_type = 'book',
        concat(${head}, ',1,', ${field("bids")}, ',', ${field("asks")}, ']'),
        concat(${head}, ',0,', ${field("side")}, ',', ${field("price")}, ',', ${field("size")}, ',', ${field("best_bid")}, ',', ${field("best_ask")}, ']'))
    FROM (SELECT timestamp, side, event_type, data, CAST(JSONExtractKeysAndValuesRaw(data), 'Map(String, String)') AS m FROM (${parts.join(" UNION ALL ")}))
    ORDER BY timestamp, side, event_type, cityHash64(data) LIMIT {limit:UInt32}`;
  return { query, binds };
}
