/**
 * The tick table clients query: one row per normalized market-channel event (docs/ticks.md).
 *
 * - PRIMARY KEY (market), ORDER BY (market, timestamp, …): every query is about one market, so the
 *   sparse index is on `market` alone, which also lets `force_primary_key` on the SQL reader refuse
 *   any query without a `market` filter. Inside a market rows are sorted by time; the `ts_minmax`
 *   skip index gives granule-level pruning on `timestamp` (what a (market, timestamp) key would).
 * - ReplacingMergeTree with `event_type, cityHash64(data)` closing the sorting key: two identical
 *   events (a replay after a reconnect or a restart, or two recorders during a deploy) collapse on
 *   merge. The recorder also drops them before insert (lib/recorder/dedup.ts), so queries without
 *   FINAL see no duplicates; the engine is the safety net.
 * - PROJECTION `best_bid_by_asset`: the published candle pattern's aggregates (argMin/argMax/min/max
 *   of the best bid, count) pre-aggregated per (market, event_type, asset_id, timestamp), sorted in
 *   that order. The optimizer answers the verbatim candle SQL from it (EXPLAIN shows
 *   `ReadFromMergeTree (best_bid_by_asset)`): it reads only the rows of the one outcome, with the
 *   JSON already parsed at insert, instead of parsing `data` twice for every row of the market.
 *   Grouping by the exact timestamp keeps every time filter exact; results are identical.
 *   `deduplicate_merge_projection_mode = 'rebuild'` recomputes it from the deduplicated rows on
 *   merge, so it never counts a row the replacing merge removed.
 * - PARTITION BY month: few, large parts (2,000 assets give tens of millions of rows a month);
 *   time-window queries still prune whole months; old months can be dropped or moved cheaply.
 * - Codecs: timestamps are sorted within a market (DoubleDelta) or nearly so (Delta), `market`
 *   repeats in long runs, `data` is JSON text that ZSTD(3) shrinks about 6-10x.
 */
export const version = "0001_polymarket_orderbook";

export const tickTable = "polymarket_orderbook_rust";

/** The candle pattern's best-bid expression, as the published SQL writes it. */
const bestBid = "toFloat64OrZero(JSONExtractString(data, 'best_bid'))";

export const statements = [
  `CREATE TABLE IF NOT EXISTS ${tickTable}
  (
    timestamp DateTime64(3) COMMENT 'venue event time (msg.timestamp, epoch ms)' CODEC(DoubleDelta, ZSTD(1)),
    timestamp_received DateTime64(3) COMMENT 'time the recorder received the frame' CODEC(Delta, ZSTD(1)),
    market String COMMENT 'Polymarket condition id (0x + 64 hex)' CODEC(ZSTD(1)),
    event_type LowCardinality(String) COMMENT 'book | price_change | last_trade_price',
    data String COMMENT 'normalized event JSON, prices as the venue sent them' CODEC(ZSTD(3)),
    INDEX ts_minmax timestamp TYPE minmax GRANULARITY 1,
    PROJECTION best_bid_by_asset
    (
      SELECT market, event_type, JSONExtractString(data, 'asset_id'), timestamp,
        argMin(${bestBid}, timestamp), argMax(${bestBid}, timestamp), min(${bestBid}), max(${bestBid}), count()
      GROUP BY market, event_type, JSONExtractString(data, 'asset_id'), timestamp
    )
  )
  ENGINE = ReplacingMergeTree
  PARTITION BY toYYYYMM(timestamp)
  PRIMARY KEY market
  ORDER BY (market, timestamp, event_type, cityHash64(data))
  SETTINGS deduplicate_merge_projection_mode = 'rebuild'`,
];
