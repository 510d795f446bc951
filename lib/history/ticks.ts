import "server-only";
import type { ClickHouseClient } from "@clickhouse/client";
import type { BookData, BookRow } from "@/lib/books/book-state";
import { AppError } from "@/lib/errors";
import { getTickStores } from "@/lib/ticks";
import type { TickSource } from "./outcomes";

/**
 * Reads of the tick table for history. They run on the service's own connection (the writer's:
 * the SQL reader's engine limits cap every result at 10,000 rows), always with the `market`
 * filter of the table's primary key, an asset filter and time bounds, and bounded by LIMIT.
 */

/** Most rows one replay reads; beyond it the request is refused rather than run unbounded. */
export const MAX_REPLAY_ROWS = 2_000_000;

/** ClickHouse DateTime64(3) literal parameter from epoch ms. */
export function chTime(ms: number): string {
  return new Date(ms).toISOString().replace("T", " ").replace("Z", "");
}

export async function historyClient(): Promise<ClickHouseClient> {
  return (await getTickStores()).writer;
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
export async function* bookRows(client: ClickHouseClient, source: TickSource, assetId: string, fromMs: number, toMs: number): AsyncGenerator<BookRow> {
  const result = await client.query({
    query: `SELECT toUnixTimestamp64Milli(timestamp) AS ts, event_type, data FROM ${source.table}
      WHERE market = {market:String} AND timestamp >= {from:DateTime64(3)} AND timestamp <= {to:DateTime64(3)}
        AND event_type IN ('book', 'price_change') AND JSONExtractString(data, 'asset_id') = {asset:String}
      ORDER BY timestamp, event_type, cityHash64(data)
      LIMIT {limit:UInt32}`,
    query_params: { market: source.conditionId, asset: assetId, from: chTime(fromMs), to: chTime(toMs), limit: MAX_REPLAY_ROWS + 1 },
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

/**
 * The same rows as `bookRows`, parsed once: the engine writes each row as one JSON text
 * `[ts,"event_type",data]` (`data` is already JSON, so TabSeparatedRaw's lines are JSON arrays),
 * and `data` reaches the book state parsed (BookRow.parsed), instead of a JSON line whose `data`
 * string is parsed a second time. For long replays (lib/spreads), where parsing is most of the
 * Node side's work.
 */
export async function* parsedBookRows(client: ClickHouseClient, source: TickSource, assetId: string, fromMs: number, toMs: number): AsyncGenerator<BookRow> {
  const result = await client.query({
    query: `SELECT concat('[', toString(toUnixTimestamp64Milli(timestamp)), ',"', event_type, '",', data, ']') FROM ${source.table}
      WHERE market = {market:String} AND timestamp >= {from:DateTime64(3)} AND timestamp <= {to:DateTime64(3)}
        AND event_type IN ('book', 'price_change') AND JSONExtractString(data, 'asset_id') = {asset:String}
      ORDER BY timestamp, event_type, cityHash64(data)
      LIMIT {limit:UInt32}`,
    query_params: { market: source.conditionId, asset: assetId, from: chTime(fromMs), to: chTime(toMs), limit: MAX_REPLAY_ROWS + 1 },
    format: "TabSeparatedRaw",
  });
  let count = 0;
  for await (const batch of result.stream()) {
    for (const line of batch) {
      count += 1;
      if (count > MAX_REPLAY_ROWS) {
        throw new AppError("query_error", `More than ${MAX_REPLAY_ROWS} recorded events between the last snapshot and the requested time; ask for a shorter span.`);
      }
      const [ts, eventType, parsed] = JSON.parse(line.text) as [number, string, BookData];
      yield { timestampMs: ts, market: source.conditionId, eventType, data: "", parsed };
    }
  }
}
