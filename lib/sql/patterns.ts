/**
 * The published query patterns of POST /v0/sql (docs/ticks.md), built for one market and outcome:
 * the one place their text lives (the dashboard's charts and console use these builders).
 * test/sql.test.ts and lib/browser/sql-answers.test.ts keep literal copies on purpose: they
 * prove the documented text itself works and is what these functions produce.
 */

export const TICK_TABLE = "polymarket_orderbook_rust";

export const candleIntervals = {
  "1m": "toStartOfMinute",
  "5m": "toStartOfFiveMinutes",
  "1h": "toStartOfHour",
  "1d": "toStartOfDay",
} as const;
export type CandleInterval = keyof typeof candleIntervals;

export const candleRanges = {
  "6h": "INTERVAL 6 HOUR",
  "24h": "INTERVAL 1 DAY",
  "7d": "INTERVAL 7 DAY",
  "30d": "INTERVAL 30 DAY",
} as const;
export type CandleRange = keyof typeof candleRanges;

export function isCandleInterval(value: string): value is CandleInterval {
  return Object.hasOwn(candleIntervals, value);
}
export function isCandleRange(value: string): value is CandleRange {
  return Object.hasOwn(candleRanges, value);
}

/** A ClickHouse string literal. Ids come from the catalog, but a literal is escaped whatever its source. */
export function sqlString(value: string): string {
  return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

export interface TickTarget {
  /** The `market` column: the Polymarket condition id, the Kalshi market ticker. */
  market: string;
  /** The outcome: `asset_id` in the JSON `data` (CLOB token id; Kalshi ticker or ticker-NO). */
  assetId: string;
  /** The published table (default polymarket_orderbook_rust; kalshi_orderbook for Kalshi). */
  table?: string;
}

/** Pattern 1: best-bid candles. With interval 1h and range 7d it is the published pattern verbatim. */
export function candleSql(target: TickTarget, interval: CandleInterval = "1h", range: CandleRange = "7d"): string {
  const alias = interval === "1h" ? "hour" : interval === "1d" ? "day" : "minute";
  return `SELECT ${candleIntervals[interval]}(timestamp) AS ${alias},
       argMin(toFloat64OrZero(JSONExtractString(data, 'best_bid')), timestamp) AS open,
       argMax(toFloat64OrZero(JSONExtractString(data, 'best_bid')), timestamp) AS close,
       min(toFloat64OrZero(JSONExtractString(data, 'best_bid'))) AS low,
       max(toFloat64OrZero(JSONExtractString(data, 'best_bid'))) AS high,
       count() AS ticks
FROM ${target.table ?? TICK_TABLE}
WHERE market = ${sqlString(target.market)} AND event_type = 'price_change'
  AND JSONExtractString(data, 'asset_id') = ${sqlString(target.assetId)}
  AND timestamp >= now() - ${candleRanges[range]}
GROUP BY ${alias} ORDER BY ${alias};`;
}

/** Pattern 2: the latest book snapshots of one outcome (the page uses the newest). */
export function bookSql(target: TickTarget, limit = 20): string {
  return `SELECT timestamp, JSONExtractString(data, 'asset_id') AS asset_id,
       JSONExtractRaw(data, 'bids') AS bids, JSONExtractRaw(data, 'asks') AS asks
FROM ${target.table ?? TICK_TABLE}
WHERE market = ${sqlString(target.market)} AND event_type = 'book'
  AND JSONExtractString(data, 'asset_id') = ${sqlString(target.assetId)}
ORDER BY timestamp DESC LIMIT ${Math.max(1, Math.floor(limit))};`;
}

/**
 * Pattern 3: book depth over time (bid and ask level counts) for one outcome of a market. A
 * market's rows hold every outcome's book, so the outcome's asset is part of the filter (both
 * books together come in mirrored pairs).
 */
export function depthSql(target: TickTarget, limit = 100): string {
  return `SELECT timestamp, JSONLength(JSONExtractRaw(data, 'bids')) AS bid_levels,
       JSONLength(JSONExtractRaw(data, 'asks')) AS ask_levels
FROM ${target.table ?? TICK_TABLE}
WHERE market = ${sqlString(target.market)} AND event_type = 'book'
  AND JSONExtractString(data, 'asset_id') = ${sqlString(target.assetId)}
ORDER BY timestamp DESC LIMIT ${Math.max(1, Math.floor(limit))};`;
}

/**
 * The width of one depth-over-time bucket per range: about 120 to 170 buckets whatever the range,
 * so a week reads as a band, not one bar per recorded book.
 */
export const depthBuckets = {
  "6h": { sql: "INTERVAL 3 MINUTE", words: "3 minutes" },
  "24h": { sql: "INTERVAL 10 MINUTE", words: "10 minutes" },
  "7d": { sql: "INTERVAL 1 HOUR", words: "hour" },
  "30d": { sql: "INTERVAL 6 HOUR", words: "6 hours" },
} as const satisfies Record<CandleRange, { sql: string; words: string }>;

/**
 * Book depth over time for one outcome, aggregated to the range: per bucket the number of books
 * recorded and the 10th, 50th and 90th percentiles of the bid and ask level counts, oldest first.
 */
export function depthHistorySql(target: TickTarget, range: CandleRange): string {
  const levels = (side: "bid" | "ask") =>
    ([10, 50, 90] as const).map((p) => `quantileExact(${String(p / 100)})(${side}_levels) AS ${side}_p${p}`).join(", ");
  return `SELECT toStartOfInterval(timestamp, ${depthBuckets[range].sql}) AS bucket, count() AS books,
       ${levels("bid")},
       ${levels("ask")}
FROM (
  SELECT timestamp, JSONLength(JSONExtractRaw(data, 'bids')) AS bid_levels, JSONLength(JSONExtractRaw(data, 'asks')) AS ask_levels
  FROM ${target.table ?? TICK_TABLE}
  WHERE market = ${sqlString(target.market)} AND event_type = 'book'
    AND JSONExtractString(data, 'asset_id') = ${sqlString(target.assetId)}
    AND timestamp >= now() - ${candleRanges[range]}
)
GROUP BY bucket ORDER BY bucket;`;
}

/** The three patterns verbatim (1h candles over 7 days, 20 books, 100 depth points). */
export function publishedPatterns(conditionId: string, outcomeId: string): { candles: string; books: string; depth: string } {
  const target = { market: conditionId, assetId: outcomeId };
  return { candles: candleSql(target), books: bookSql(target), depth: depthSql(target) };
}
