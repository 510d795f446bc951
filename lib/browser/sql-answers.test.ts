import { describe, expect, it } from "vitest";
import { bookSql, candleSql, depthSql, sqlString } from "@/lib/sql/patterns";
import {
  candlesFromAnswer,
  cumulativeDepth,
  latestBookFromAnswer,
  levelBandsFromAnswer,
  parseSqlTime,
  type SqlRows,
} from "./sql-answers";

const target = { market: "0xabc", assetId: "123" };

const answer = (columns: string[], data: Record<string, unknown>[]): SqlRows => ({
  data,
  meta: { columns: columns.map((name) => ({ name, type: "String" })) },
});

describe("published patterns", () => {
  it("candle SQL at 1h / 7d is the published pattern verbatim", () => {
    const published = `SELECT toStartOfHour(timestamp) AS hour,
       argMin(toFloat64OrZero(JSONExtractString(data, 'best_bid')), timestamp) AS open,
       argMax(toFloat64OrZero(JSONExtractString(data, 'best_bid')), timestamp) AS close,
       min(toFloat64OrZero(JSONExtractString(data, 'best_bid'))) AS low,
       max(toFloat64OrZero(JSONExtractString(data, 'best_bid'))) AS high,
       count() AS ticks
FROM polymarket_orderbook_rust
WHERE market = '0xabc' AND event_type = 'price_change'
  AND JSONExtractString(data, 'asset_id') = '123'
  AND timestamp >= now() - INTERVAL 7 DAY
GROUP BY hour ORDER BY hour;`;
    expect(candleSql(target)).toBe(published);
  });

  it.each([
    ["1m", "6h", "toStartOfMinute(timestamp) AS minute", "INTERVAL 6 HOUR"],
    ["5m", "24h", "toStartOfFiveMinutes(timestamp) AS minute", "INTERVAL 1 DAY"],
    ["1d", "30d", "toStartOfDay(timestamp) AS day", "INTERVAL 30 DAY"],
  ] as const)("candle SQL for %s over %s", (interval, range, bucket, window) => {
    const sql = candleSql(target, interval, range);
    expect(sql).toContain(bucket);
    expect(sql).toContain(window);
  });

  it("book and depth SQL filter by market and outcome", () => {
    expect(bookSql(target, 1)).toContain("WHERE market = '0xabc' AND event_type = 'book'\n  AND JSONExtractString(data, 'asset_id') = '123'");
    expect(bookSql(target, 1)).toMatch(/LIMIT 1;$/);
    expect(depthSql(target)).toMatch(/WHERE market = '0xabc' AND event_type = 'book'\n  AND JSONExtractString\(data, 'asset_id'\) = '123'\nORDER BY timestamp DESC LIMIT 100;$/);
  });

  it("escapes quotes and backslashes in literals", () => {
    expect(sqlString("a'b\\c")).toBe("'a\\'b\\\\c'");
    expect(candleSql({ market: "x' OR 1=1 --", assetId: "1" })).toContain("market = 'x\\' OR 1=1 --'");
  });
});

describe("answers to chart data", () => {
  it("reads /v0/sql times as UTC", () => {
    expect(parseSqlTime("2026-03-01 14:00:00")).toBe(Date.UTC(2026, 2, 1, 14) / 1000);
    expect(parseSqlTime("2026-03-01 14:00:00.250")).toBe(Date.UTC(2026, 2, 1, 14, 0, 0, 250) / 1000);
    expect(parseSqlTime("2026-03-01")).toBe(Date.UTC(2026, 2, 1) / 1000);
    expect(parseSqlTime("garbage")).toBeUndefined();
  });

  it("turns candle rows into sorted candles, whatever the bucket alias", () => {
    const candles = candlesFromAnswer(
      answer(["minute", "open", "close", "low", "high", "ticks"], [
        { minute: "2026-03-01 14:05:00", open: 0.5, close: 0.52, low: 0.49, high: 0.53, ticks: "7" },
        { minute: "2026-03-01 14:00:00", open: 0.4, close: 0.5, low: 0.4, high: 0.5, ticks: 3 },
        { minute: "bad", open: 1, close: 1, low: 1, high: 1, ticks: 1 },
      ]),
    );
    expect(candles).toEqual([
      { time: Date.UTC(2026, 2, 1, 14) / 1000, open: 0.4, high: 0.5, low: 0.4, close: 0.5, ticks: 3 },
      { time: Date.UTC(2026, 2, 1, 14, 5) / 1000, open: 0.5, high: 0.53, low: 0.49, close: 0.52, ticks: 7 },
    ]);
  });

  it("takes the newest book, best levels first, and accumulates depth", () => {
    const book = latestBookFromAnswer(
      answer(["timestamp", "asset_id", "bids", "asks"], [
        { timestamp: "2026-03-01 14:00:00", bids: '[["0.1","1"]]', asks: "[]" },
        { timestamp: "2026-03-01 15:00:00", bids: '[["0.40","10"],["0.45","5"]]', asks: '[["0.60","3"],["0.55","2"]]' },
      ]),
    );
    expect(book?.bids).toEqual([{ price: 0.45, size: 5 }, { price: 0.4, size: 10 }]);
    expect(book?.asks).toEqual([{ price: 0.55, size: 2 }, { price: 0.6, size: 3 }]);
    expect(book === undefined ? undefined : cumulativeDepth(book)).toEqual({
      bids: [{ price: 0.45, cumulative: 5 }, { price: 0.4, cumulative: 15 }],
      asks: [{ price: 0.55, cumulative: 2 }, { price: 0.6, cumulative: 5 }],
    });
    expect(latestBookFromAnswer(answer(["timestamp"], []))).toBeUndefined();
  });

  it("reads depth-over-time buckets oldest first, skipping a row without its percentiles", () => {
    const bands = levelBandsFromAnswer(
      answer(["bucket", "books", "bid_p10", "bid_p50", "bid_p90", "ask_p10", "ask_p50", "ask_p90"], [
        { bucket: "2026-03-01 15:00:00", books: 4, bid_p10: 2, bid_p50: "3", bid_p90: 5, ask_p10: 1, ask_p50: 4, ask_p90: 6 },
        { bucket: "2026-03-01 14:00:00", books: "6", bid_p10: 1, bid_p50: 2, bid_p90: 3, ask_p10: 2, ask_p50: 2, ask_p90: 2 },
        { bucket: "2026-03-01 16:00:00", books: 1, bid_p10: 1, bid_p50: null, bid_p90: 3, ask_p10: 2, ask_p50: 2, ask_p90: 2 },
      ]),
    );
    expect(bands.map((b) => [b.time, b.books, b.bid.p50, b.ask.p90])).toEqual([
      [Date.parse("2026-03-01T14:00:00Z") / 1000, 6, 2, 2],
      [Date.parse("2026-03-01T15:00:00Z") / 1000, 4, 3, 6],
    ]);
  });
});
