import type { TickDdlDatabases } from "./databases";

/**
 * Catalog price snapshots (price history for every venue, docs/history.md): each catalog poll
 * appends one row per outcome with the price the venue listed, and best bid/ask and 24h volume
 * where the venue gives them. Internal: served by GET /v0/markets/{id}/prices and the dashboard,
 * never published to user SQL, so it lives in Brier's internal database.
 *
 * - ORDER BY (market_id, outcome_id, snapshot_at): every read is one market's outcomes over a time
 *   range (OHLC per outcome, a sparkline), which the sort key answers with a narrow range read.
 * - PARTITION BY month, like the tick table: old months drop cheaply.
 * - A snapshot is appended, never updated; polls at different instants never collide.
 */
export const version = "0002_catalog_price_snapshots";

export const priceSnapshotsTable = "catalog_price_snapshots";

export const statements = ({ internal }: TickDdlDatabases): string[] => [
  `CREATE TABLE IF NOT EXISTS ${internal}.${priceSnapshotsTable}
  (
    snapshot_at DateTime64(3) COMMENT 'time of the catalog poll (UTC)' CODEC(DoubleDelta, ZSTD(1)),
    venue LowCardinality(String) COMMENT 'pmxt-core exchange key',
    market_id UUID COMMENT 'catalog market id (UUID v5 of venue and venue market id)',
    outcome_id String COMMENT 'outcome id (CLOB token id on Polymarket, ticker on Kalshi)' CODEC(ZSTD(1)),
    price Float64 COMMENT 'the outcome price the venue listed, 0..1' CODEC(Gorilla, ZSTD(1)),
    best_bid Nullable(Float64) COMMENT 'best bid when the venue gives it' CODEC(ZSTD(1)),
    best_ask Nullable(Float64) COMMENT 'best ask when the venue gives it' CODEC(ZSTD(1)),
    volume_24h Nullable(Float64) COMMENT 'market 24h volume (USD) when the venue gives it' CODEC(ZSTD(1))
  )
  ENGINE = MergeTree
  PARTITION BY toYYYYMM(snapshot_at)
  ORDER BY (market_id, outcome_id, snapshot_at)`,
];
