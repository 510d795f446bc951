/**
 * The published query patterns of docs/ticks.md, verbatim, for a market and an outcome token.
 * test/sql.test.ts keeps its own literal copy on purpose: it proves the documented text works.
 */
export function publishedPatterns(conditionId: string, outcomeId: string): { candles: string; books: string; depth: string } {
  return {
    candles: `SELECT toStartOfHour(timestamp) AS hour,
       argMin(toFloat64OrZero(JSONExtractString(data, 'best_bid')), timestamp) AS open,
       argMax(toFloat64OrZero(JSONExtractString(data, 'best_bid')), timestamp) AS close,
       min(toFloat64OrZero(JSONExtractString(data, 'best_bid'))) AS low,
       max(toFloat64OrZero(JSONExtractString(data, 'best_bid'))) AS high,
       count() AS ticks
FROM polymarket_orderbook_rust
WHERE market = '${conditionId}' AND event_type = 'price_change'
  AND JSONExtractString(data, 'asset_id') = '${outcomeId}'
  AND timestamp >= now() - INTERVAL 7 DAY
GROUP BY hour ORDER BY hour;`,
    books: `SELECT timestamp, JSONExtractString(data, 'asset_id') AS asset_id,
       JSONExtractRaw(data, 'bids') AS bids, JSONExtractRaw(data, 'asks') AS asks
FROM polymarket_orderbook_rust
WHERE market = '${conditionId}' AND event_type = 'book'
  AND JSONExtractString(data, 'asset_id') = '${outcomeId}'
ORDER BY timestamp DESC LIMIT 20;`,
    depth: `SELECT timestamp, JSONLength(JSONExtractRaw(data, 'bids')) AS bid_levels,
       JSONLength(JSONExtractRaw(data, 'asks')) AS ask_levels
FROM polymarket_orderbook_rust
WHERE market = '${conditionId}' AND event_type = 'book'
ORDER BY timestamp DESC LIMIT 100;`,
  };
}
