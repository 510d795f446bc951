import "server-only";
import { z } from "zod";
import type { Db } from "@/lib/db";
import { tickTable } from "@/lib/ticks/ddl/0001_polymarket_orderbook";
import { recordedOutcomeOrThrow } from "./outcomes";
import { boundedInt, decodeCursor, encodeCursor, instant, outcomeIdParam, parsePathParam, parseQuery, timeRange } from "./params";
import { chTime, historyClient } from "./ticks";

export const TRADES_MAX_LIMIT = 1000;

export const tradesQuery = z
  .object({
    since: instant.optional().describe("Oldest trade time (inclusive), ISO 8601 or epoch ms; default 7 days before until."),
    until: instant.optional().describe("Newest trade time (inclusive); default now."),
    limit: boundedInt(TRADES_MAX_LIMIT, 100).describe(`Trades per call (1–${TRADES_MAX_LIMIT}, default 100).`),
    cursor: z.string().optional().describe("nextCursor of the previous page (same since/until)."),
  })
  .strict();

/** One recorded trade, in pmxt's Trade shape plus the venue's fee and hash. */
export interface RecordedTrade {
  /** The venue's transaction hash (empty when it sent none). */
  id: string;
  /** Venue time, epoch ms. */
  timestamp: number;
  price: number;
  amount: number;
  side: "buy" | "sell" | "unknown";
  feeRateBps: number | null;
}

const tradeCursor = z.tuple([z.literal("t"), z.number().int().positive(), z.string().regex(/^\d{1,20}$/)]);

/**
 * GET /v0/trades/{outcomeId}: the outcome's recorded `last_trade_price` events, newest first.
 * Keyset-paged on (timestamp, cityHash64(data)) descending, so a page never repeats or skips a
 * trade, even among trades of the same millisecond.
 */
export async function recordedTrades(db: Db, rawOutcomeId: unknown, searchParams: URLSearchParams, now = Date.now()) {
  const outcomeId = parsePathParam("outcomeId", outcomeIdParam, rawOutcomeId);
  const query = parseQuery(tradesQuery, searchParams);
  const range = timeRange(query.since, query.until === undefined ? undefined : query.until + 1, 7 * 86_400_000, now + 1);
  const cursor = decodeCursor(query.cursor, tradeCursor);
  const outcome = await recordedOutcomeOrThrow(db, outcomeId);
  const client = await historyClient();
  const after = cursor === undefined ? "" : "AND (timestamp, cityHash64(data)) < (fromUnixTimestamp64Milli({cursorTs:Int64}), {cursorHash:UInt64})";
  const result = await client.query({
    query: `SELECT toUnixTimestamp64Milli(timestamp) AS ts, toString(cityHash64(data)) AS h,
        JSONExtractString(data, 'transaction_hash') AS id, JSONExtractString(data, 'price') AS price,
        JSONExtractString(data, 'size') AS size, JSONExtractString(data, 'side') AS side, JSONExtractString(data, 'fee_rate_bps') AS fee
      FROM ${tickTable}
      WHERE market = {market:String} AND event_type = 'last_trade_price' AND timestamp >= {since:DateTime64(3)} AND timestamp < {until:DateTime64(3)}
        AND JSONExtractString(data, 'asset_id') = {asset:String} ${after}
      ORDER BY timestamp DESC, cityHash64(data) DESC
      LIMIT {limit:UInt32}`,
    query_params: {
      market: outcome.conditionId,
      asset: outcomeId,
      since: chTime(range.since),
      until: chTime(range.until),
      limit: query.limit + 1,
      ...(cursor === undefined ? {} : { cursorTs: cursor[1], cursorHash: cursor[2] }),
    },
    format: "JSONCompactEachRow",
  });
  const rows = await result.json<[number | string, string, string, string, string, string, string]>();
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  const data: RecordedTrade[] = page.map(([ts, , id, price, size, side, fee]) => ({
    id,
    timestamp: Number(ts),
    price: Number(price),
    amount: Number(size),
    side: side === "BUY" ? "buy" : side === "SELL" ? "sell" : "unknown",
    feeRateBps: fee === "" || !Number.isFinite(Number(fee)) ? null : Number(fee),
  }));
  const nextCursor = rows.length > query.limit && last !== undefined ? encodeCursor(["t", Number(last[0]), last[1]]) : null;
  return { data, meta: { count: data.length, limit: query.limit, outcomeId, market: outcome.conditionId, nextCursor } };
}
