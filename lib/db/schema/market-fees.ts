import { jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/** One dated version of a market's own fee (lib/spreads/fees.ts MarketFeeVersion). */
export interface StoredFeeVersion {
  /** In force from (epoch ms); null: since the market existed. */
  from: number | null;
  takerRate: string | null;
  exponent: 1 | 2;
  note: string;
}

/**
 * Each recorded market's own fee, read from its venue's fields (lib/recorder/<venue>/fees.ts) and
 * kept dated: every version with the instant it took effect, so a point of a spread is priced with
 * the fee in force then (docs/spreads.md, "Fees"). Owned by lib/spreads (market-fees.ts reads and
 * writes it). `error` says why the last read failed (the versions of an earlier read stay).
 */
export const marketFees = pgTable(
  "market_fees",
  {
    venue: text("venue").notNull(),
    venueMarketId: text("venue_market_id").notNull(),
    versions: jsonb("versions").$type<StoredFeeVersion[]>().notNull(),
    readAt: timestamp("read_at", { withTimezone: true }).notNull(),
    error: text("error"),
  },
  (table) => [primaryKey({ columns: [table.venue, table.venueMarketId] })],
);

export type MarketFeesRow = typeof marketFees.$inferSelect;
