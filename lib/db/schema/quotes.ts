import { doublePrecision, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { events } from "./events";
import { markets, type StoredOutcome } from "./markets";

/**
 * The fast-moving half of a catalog market: its prices and volumes, which change on almost every
 * poll. Kept apart from `markets` (which carries the listing's thirteen secondary indexes, the
 * trigram GIN among them) so a poll's price changes rewrite one narrow row with its primary key
 * only, and usually not even that (fillfactor 50 leaves room on each page for a new version of
 * every row on it, so a poll that rewrites them all still updates heap-only; drizzle/0016).
 * Written by lib/catalog/store.ts in one set-based UPDATE per batch; every answer that shows a
 * market joins it (lib/catalog/public.ts `marketColumnsOf`). One row per market, always: the
 * upsert writes both in one transaction.
 */
export const marketQuotes = pgTable("market_quotes", {
  id: uuid("id")
    .primaryKey()
    .references(() => markets.id, { onDelete: "cascade" }),
  /** Every outcome with its price and 24-hour change, in the venue's order (`markets.outcomes` has the same ids and labels). */
  outcomes: jsonb("outcomes").$type<StoredOutcome[]>().notNull(),
  volume24h: doublePrecision("volume24h").notNull().default(0),
  volume: doublePrecision("volume"),
  liquidity: doublePrecision("liquidity"),
  openInterest: doublePrecision("open_interest"),
  /** The poll that last changed any of the above. */
  quotedAt: timestamp("quoted_at", { withTimezone: true }).notNull().defaultNow(),
  /**
   * Copies of what a poll compares against, as last written: `markets.content_hash` and the rank
   * keys of `market_ranks` (`volume24h`, `abs_change24h`, `liquidity`). A re-poll reads them here,
   * on the row it updates anyway, instead of probing both tables for every market
   * (lib/catalog/store.ts `quoteStatement`, docs/performance.md). In no index, so writing them
   * keeps the update heap-only. Null (not yet copied, or `markets.content_hash` cleared) sends the
   * market down the full path, which copies them again.
   */
  contentHash: text("content_hash"),
  rankVolume24h: doublePrecision("rank_volume24h"),
  rankAbsChange24h: doublePrecision("rank_abs_change24h"),
  rankLiquidity: doublePrecision("rank_liquidity"),
});

export type MarketQuoteRow = typeof marketQuotes.$inferSelect;

/** The same split for events: their volumes and liquidity (aggregates that move every poll), apart from `events`. */
export const eventQuotes = pgTable("event_quotes", {
  id: uuid("id")
    .primaryKey()
    .references(() => events.id, { onDelete: "cascade" }),
  volume24h: doublePrecision("volume24h").notNull().default(0),
  volume: doublePrecision("volume"),
  liquidity: doublePrecision("liquidity"),
  /** The poll that last changed any of the above. */
  quotedAt: timestamp("quoted_at", { withTimezone: true }).notNull().defaultNow(),
  /**
   * Copies of `events.content_hash` and of its rank keys (`volume24h`, `abs_change24h`,
   * `liquidity`) as last written, as `market_quotes` keeps for markets (drizzle/0029): a re-poll
   * reads them here instead of probing `events` for every event. In no index; null sends the event
   * down the full path, which copies them again.
   */
  contentHash: text("content_hash"),
  rankVolume24h: doublePrecision("rank_volume24h"),
  rankAbsChange24h: doublePrecision("rank_abs_change24h"),
  rankLiquidity: doublePrecision("rank_liquidity"),
});
