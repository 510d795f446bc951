import { sql } from "drizzle-orm";
import { check, doublePrecision, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The current outcome of each market whose outcome Brier has read (owned by lib/outcomes; written
 * only by lib/outcomes/store.ts). One row per (venue, venue-native market id), the key the catalog's
 * `markets` row has, so catalog answers read it by primary key; markets the catalog never listed
 * (a sweep of closed markets) have rows too. Every change that led here is a row of ClickHouse's
 * `market_outcomes` (lib/ticks/ddl/0006_market_outcomes.ts); `changes` counts them. The state
 * vocabulary and each field's meaning: docs/outcomes.md.
 */
export const marketOutcomes = pgTable(
  "market_outcomes",
  {
    venue: text("venue").notNull(),
    /** The catalog's venue-native id (`markets.venue_market_id`): Polymarket Gamma market id, Kalshi ticker. */
    venueMarketId: text("venue_market_id").notNull(),
    /** The books key (the tick tables' `market`): Polymarket condition id, Kalshi ticker. */
    market: text("market").notNull(),
    outcomeIds: text("outcome_ids").array().notNull(),
    state: text("state").notNull(),
    /** The venue's own word for the state (Kalshi `finalized`, `amended`; Polymarket's UMA status), null if none. */
    venueState: text("venue_state"),
    winningOutcomeId: text("winning_outcome_id"),
    /** Payout per share of the first outcome, 0..1 dollars; null until the venue states it. */
    settlementValue: doublePrecision("settlement_value"),
    closedAt: timestamp("closed_at", { withTimezone: true, precision: 3 }),
    determinedAt: timestamp("determined_at", { withTimezone: true, precision: 3 }),
    settledAt: timestamp("settled_at", { withTimezone: true, precision: 3 }),
    /** Venue time of the last change. */
    venueTime: timestamp("venue_time", { withTimezone: true, precision: 3 }).notNull(),
    /** When Brier received the last change. */
    receivedAt: timestamp("received_at", { withTimezone: true, precision: 3 }).notNull(),
    /** How the last change was learned: rest | historical | push | catalog | synthetic. */
    source: text("source").notNull(),
    /** The source the venue names for the result. */
    resolutionSource: text("resolution_source"),
    /** Changes recorded for this market (rows in ClickHouse's `market_outcomes`). */
    changes: integer("changes").notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.venue, t.venueMarketId] }),
    index("market_outcomes_market_idx").on(t.market, t.venue),
    index("market_outcomes_resolved_closed_idx")
      .on(t.closedAt, t.venue, t.venueMarketId)
      .where(sql`state in ('determined', 'settled')`),
    check(
      "market_outcomes_state_check",
      sql`${t.state} in ('open', 'closed', 'proposed', 'disputed', 'determined', 'settled', 'voided', 'unknown')`,
    ),
    check("market_outcomes_source_check", sql`${t.source} in ('rest', 'historical', 'push', 'catalog', 'synthetic')`),
  ],
);

export type MarketOutcomeRow = typeof marketOutcomes.$inferSelect;
