import "server-only";
import type { Db } from "@/lib/db";
import { encodeCursor } from "@/lib/input";
import { recordedOutcomeOrThrow } from "./outcomes";
import { timeRange } from "./params";
import { tradesPage, type RecordedTrade, type TradesQuery } from "./shapes";
import { bind, tickRows, type TickReader } from "@/lib/ticks";

/**
 * GET /v0/trades/{outcomeId}: the outcome's recorded `last_trade_price` events, newest first.
 * Keyset-paged on (timestamp, cityHash64(data)) descending, so a page never repeats or skips a
 * trade, even among trades of the same millisecond.
 */
export async function recordedTrades(db: Db, ticks: TickReader, outcomeId: string, query: TradesQuery, now = Date.now()) {
  const range = timeRange(query.since, query.until === undefined ? undefined : query.until + 1, 7 * 86_400_000, now + 1);
  const cursor = query.cursor;
  const outcome = await recordedOutcomeOrThrow(db, outcomeId);
  const after = cursor === undefined ? "" : "AND (timestamp, cityHash64(data)) < (fromUnixTimestamp64Milli({cursorTs:Int64}), {cursorHash:UInt64})";
  const rows = await tickRows<[number | string, string, string, string, string, string, string]>(
    ticks,
    `SELECT toUnixTimestamp64Milli(timestamp) AS ts, toString(cityHash64(data)) AS h,
        JSONExtractString(data, 'transaction_hash') AS id, JSONExtractString(data, 'price') AS price,
        JSONExtractString(data, 'size') AS size, JSONExtractString(data, 'side') AS side, JSONExtractString(data, 'fee_rate_bps') AS fee
      FROM ${outcome.table}
      WHERE market = {market:String} AND event_type = 'last_trade_price' AND timestamp >= {since:DateTime64(3)} AND timestamp < {until:DateTime64(3)}
        AND JSONExtractString(data, 'asset_id') = {asset:String} ${after}
      ORDER BY timestamp DESC, cityHash64(data) DESC
      LIMIT {limit:UInt32}`,
    {
      market: bind.string(outcome.conditionId),
      asset: bind.string(outcomeId),
      since: bind.time(range.since),
      until: bind.time(range.until),
      limit: bind.uint32(query.limit + 1),
      ...(cursor === undefined ? {} : { cursorTs: bind.int64(cursor[1]), cursorHash: bind.uint64(cursor[2]) }),
    },
  );
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
  return tradesPage.parse({ data, meta: { count: data.length, limit: query.limit, outcomeId, market: outcome.conditionId, nextCursor } });
}
