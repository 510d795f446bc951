import "server-only";
import { ReplayBatch, type BookRow } from "@/lib/books/book-state";
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

/** Rows of the merged stream handed over at a time. */
const BATCH_ROWS = 8192;

/** One side of a merged replay: an asset of a market, its rows from `fromMs`. */
export interface ReplaySide {
  source: TickSource;
  assetId: string;
  fromMs: number;
  /** The `side` its rows carry (default: its index in the list). */
  side?: number;
}

/** Bytes of a merged row before its text: ts Int64, side, is-book and replay_side UInt8, four Float64. */
const FIXED_BYTES = 8 + 3 + 32;

/** Bytes of a chunk first joined to the row the previous chunk cut (more when that row's text is longer). */
const HEAD_BYTES = 64 * 1024;

/**
 * The book rows of several assets (each from its own start, up to `toMs`) as one stream merged
 * by the engine in venue-time order, each row with its side, with bounded memory, for long
 * replays (lib/spreads: a day of a busy book is a million rows), a batch of columns at a time
 * (lib/books `ReplayBatch`: no object per row). Within a
 * side the order is `bookRows`'s (time, `book` before `price_change`, then cityHash64(data)).
 *
 * The engine reads the typed replay columns written at insert (lib/ticks/ddl/0007_replay_columns.ts),
 * never `data`: no JSON is extracted per row at read. The rows come as RowBinary (a fixed layout
 * read with a DataView, no text decoded), and only a snapshot's levels and a change the engine
 * could not read exactly are JSON, parsed here from the raw fields the column kept. It runs on the
 * engine's streaming query (TickStores.streamQuery: chDB's queryStream, or the server's HTTP
 * stream), which hands over chunks as the engine produces them: the buffered client query held
 * the whole result (measured: 320 MB of Node heap for a day of two 1M-row books), and one merged
 * query takes one of the embedded engine's stream slots, not one per side. The streaming query
 * binds nothing: `tickStream` turns the typed binds into typed literals (lib/ticks/query.ts).
 */
export async function* mergedBookRows(ticks: TickReader, sides: readonly ReplaySide[], toMs: number): AsyncGenerator<ReplayBatch> {
  const { query, binds } = mergedBookQuery(sides, toMs);
  const decoder = new TextDecoder();
  const limit = sides.length * MAX_REPLAY_ROWS;
  let count = 0;
  let batch = new ReplayBatch(BATCH_ROWS);
  /** Reads the whole rows of `bytes` that start at `at` or later and before `before`, a full batch yielded at a time; returns where it stopped (a row cut by the end of `bytes`). */
  function* rows(bytes: Uint8Array, at: number, before: number): Generator<ReplayBatch, number> {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    while (at < before && bytes.length - at > FIXED_BYTES) {
      // The text's length: unsigned LEB128.
      let length = 0;
      let shift = 0;
      let textAt = at + FIXED_BYTES;
      let byte = 0x80;
      while (byte & 0x80 && textAt < bytes.length) {
        byte = bytes[textAt] ?? 0;
        length += (byte & 0x7f) * 2 ** shift;
        shift += 7;
        textAt += 1;
      }
      if (byte & 0x80 || textAt + length > bytes.length) break;
      const ts = view.getUint32(at, true) + view.getInt32(at + 4, true) * 2 ** 32;
      const side = bytes[at + 8] ?? 0;
      const bookSide = bytes[at + 10];
      if (bookSide === 1 || bookSide === 2) {
        batch.pushChange(ts, side, bookSide === 1 ? "BUY" : "SELL", view.getFloat64(at + 11, true), view.getFloat64(at + 19, true), view.getFloat64(at + 27, true), view.getFloat64(at + 35, true));
      } else {
        const fields = JSON.parse(`[${decoder.decode(bytes.subarray(textAt, textAt + length))}]`) as unknown[];
        batch.pushFields(ts, side, bytes[at + 9] === 1 ? 1 : 0, fields);
      }
      at = textAt + length;
      count += 1;
      if (count > limit) {
        throw new AppError("query_error", `More than ${MAX_REPLAY_ROWS} recorded events a book between the last snapshot and the requested time; ask for a shorter span.`);
      }
      if (batch.full) {
        yield batch;
        batch = new ReplayBatch(BATCH_ROWS);
      }
    }
    return at;
  }
  const joined = (head: Uint8Array, tail: Uint8Array) => {
    const bytes = new Uint8Array(head.length + tail.length);
    bytes.set(head);
    bytes.set(tail, head.length);
    return bytes;
  };
  // The start of a row the last chunk cut (never more than one row).
  let carry: Uint8Array | undefined;
  for await (const chunk of tickStream(ticks, query, binds, "RowBinary")) {
    let at = 0;
    if (carry !== undefined) {
      // The cut row is completed from the head of this chunk: a chunk is megabytes, and copying it
      // whole to prepend a few bytes cost a copy of the whole result (measured: 250 MB of heap).
      let take = Math.min(chunk.length, HEAD_BYTES);
      for (;;) {
        const head = joined(carry, chunk.subarray(0, take));
        const end = yield* rows(head, 0, carry.length);
        if (end >= carry.length) {
          at = end - carry.length;
          carry = undefined;
          break;
        }
        if (take === chunk.length) {
          carry = head;
          break;
        }
        take = Math.min(chunk.length, take * 4);
      }
      if (carry !== undefined) continue;
    }
    const end = yield* rows(chunk, at, chunk.length);
    if (end < chunk.length) carry = chunk.slice(end);
  }
  if (carry !== undefined) throw new AppError("query_error", "The engine's replay stream ended inside a row.");
  if (batch.length > 0) yield batch;
}

/**
 * `mergedBookRows`' statement and binds, its rows in RowBinary: for the bench, which times the
 * engine's part of a replay alone (scripts/bench/spread.ts, `--stages`).
 */
export function mergedBookQuery(sides: readonly ReplaySide[], toMs: number): { query: string; binds: Record<string, Bind> } {
  const binds: Record<string, Bind> = { to: bind.time(Math.floor(toMs)), limit: bind.uint32(sides.length * MAX_REPLAY_ROWS + 1) };
  const parts = sides.map(({ source, assetId, fromMs, side }, index) => {
    const table = venueOfTable(source.table)?.table;
    if (table === undefined) throw new AppError("not_found", "Not a recorded venue's table.", { resource: "order book" });
    binds[`market${index}`] = bind.string(source.conditionId);
    binds[`asset${index}`] = bind.string(assetId);
    binds[`from${index}`] = bind.time(Math.floor(fromMs));
    return `SELECT timestamp, ${Math.trunc(side ?? index)} AS side, event_type, replay_hash, replay_side, replay_price, replay_size, replay_best_bid, replay_best_ask, replay_text FROM ${table}
      WHERE market = {market${index}:String} AND timestamp >= {from${index}:DateTime64(3)} AND timestamp <= {to:DateTime64(3)}
        AND event_type IN ('book', 'price_change') AND replay_asset = {asset${index}:String}`;
  });
  const query = `SELECT toUnixTimestamp64Milli(timestamp), toUInt8(side), toUInt8(event_type = 'book'), replay_side, replay_price, replay_size, replay_best_bid, replay_best_ask, replay_text
    FROM (${parts.join(" UNION ALL ")})
    ORDER BY timestamp, side, event_type, replay_hash LIMIT {limit:UInt32}`;
  return { query, binds };
}
