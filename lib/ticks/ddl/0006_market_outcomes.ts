/**
 * Every change of a market's outcome (docs/outcomes.md): one row per lifecycle change a venue
 * stated (closed, proposed, disputed, determined, settled, voided, amended), appended and never
 * updated, so a reversal is a new row and every earlier state stays. Published to user SQL beside
 * the books: `market` holds what the books tables' `market` holds (Polymarket condition id, Kalshi
 * ticker), so a backtest joins prices and outcomes in one query. The current outcome per market is
 * kept in PostgreSQL (`market_outcomes`, lib/outcomes/store.ts), which decides what is a change.
 *
 * - PRIMARY KEY (venue, market): the SQL reader's `force_primary_key` wants a `venue` or `market`
 *   filter, as the books want a `market` one; rows of one market are sorted by the venue's time.
 * - MergeTree, not Replacing: nothing collapses; a row is a fact Brier received.
 */
export const version = "0006_market_outcomes";

export const outcomesTable = "market_outcomes";

export const statements = [
  `CREATE TABLE IF NOT EXISTS ${outcomesTable}
  (
    venue LowCardinality(String) COMMENT 'polymarket | kalshi | mock (the demo) | another catalog venue',
    market String COMMENT 'the books key: Polymarket condition id, Kalshi ticker' CODEC(ZSTD(1)),
    venue_market_id String COMMENT 'the catalog venue-native id: Polymarket Gamma market id, Kalshi ticker' CODEC(ZSTD(1)),
    outcome_ids Array(String) COMMENT 'the market outcome ids in the venue order (catalog outcomeId)' CODEC(ZSTD(1)),
    state LowCardinality(String) COMMENT 'open | closed | proposed | disputed | determined | settled | voided | unknown',
    venue_state LowCardinality(String) COMMENT 'the venue own word for it (finalized, amended, disputed, ...), empty if none',
    winning_outcome_id Nullable(String) COMMENT 'the outcome id the venue named the winner; null when none (voided, 50-50, not yet)',
    settlement_value Nullable(Float64) COMMENT 'payout per share of the first outcome, 0..1 dollars; null until stated',
    closed_time Nullable(DateTime64(3)) COMMENT 'when trading closed, as the venue states it',
    venue_time DateTime64(3) COMMENT 'when the change happened, as the venue states it' CODEC(Delta, ZSTD(1)),
    received_time DateTime64(3) COMMENT 'when Brier received it' CODEC(Delta, ZSTD(1)),
    source LowCardinality(String) COMMENT 'how Brier learned it: rest | historical | push | catalog | synthetic',
    resolution_source Nullable(String) COMMENT 'the source the venue names for the result',
    raw String COMMENT 'the venue payload of the change, JSON text as received' CODEC(ZSTD(3))
  )
  ENGINE = MergeTree
  PARTITION BY toYYYYMM(venue_time)
  PRIMARY KEY (venue, market)
  ORDER BY (venue, market, venue_time, received_time)`,
];
