import { priceSnapshotsTable } from "./0002_catalog_price_snapshots";
import type { TickDdlDatabases } from "./databases";

/**
 * Hourly OHLC of the catalog price snapshots, kept by a materialized view (docs/history.md):
 * GET /v0/markets/{id}/prices reads at most 24 rows a day per outcome instead of 1,440 snapshots
 * (a year of 60 s polls is 525,600 rows an outcome; its hourly states are 8,760). Buckets are whole
 * UTC hours, so 1h and 1d candles both merge these states exactly. Internal, like the snapshots.
 * The backfill folds in snapshots written before this view existed (once, when the DDL is applied).
 */
export const version = "0003_catalog_price_hourly";

export const priceHourlyTable = "catalog_price_hourly";

export const statements = ({ internal }: TickDdlDatabases): string[] => [
  `CREATE TABLE IF NOT EXISTS ${internal}.${priceHourlyTable}
  (
    market_id UUID,
    outcome_id String,
    hour DateTime('UTC'),
    open AggregateFunction(argMin, Float64, DateTime64(3)),
    high SimpleAggregateFunction(max, Float64),
    low SimpleAggregateFunction(min, Float64),
    close AggregateFunction(argMax, Float64, DateTime64(3)),
    snapshots SimpleAggregateFunction(sum, UInt64),
    volume_24h AggregateFunction(argMax, Nullable(Float64), DateTime64(3))
  )
  ENGINE = AggregatingMergeTree
  PARTITION BY toYYYYMM(hour)
  ORDER BY (market_id, outcome_id, hour)`,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS ${internal}.${priceHourlyTable}_mv TO ${internal}.${priceHourlyTable} AS
  SELECT market_id, outcome_id, toStartOfHour(snapshot_at, 'UTC') AS hour,
    argMinState(price, snapshot_at) AS open, max(price) AS high, min(price) AS low, argMaxState(price, snapshot_at) AS close,
    toUInt64(count()) AS snapshots, argMaxState(volume_24h, snapshot_at) AS volume_24h
  FROM ${internal}.${priceSnapshotsTable}
  GROUP BY market_id, outcome_id, hour`,
  `INSERT INTO ${internal}.${priceHourlyTable}
  SELECT market_id, outcome_id, toStartOfHour(snapshot_at, 'UTC') AS hour,
    argMinState(price, snapshot_at), max(price), min(price), argMaxState(price, snapshot_at), toUInt64(count()), argMaxState(volume_24h, snapshot_at)
  FROM ${internal}.${priceSnapshotsTable}
  GROUP BY market_id, outcome_id, hour`,
];
