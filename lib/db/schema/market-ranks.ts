import { sql } from "drizzle-orm";
import { boolean, doublePrecision, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tsvector } from "./events";
import { markets } from "./markets";

/**
 * The listing's half of a catalog market: its rank keys (the list orders' sort keys) with copies
 * of the columns a listing filters on, under the listing's order indexes. Kept apart from
 * `markets` so a rank move (a poll that moved a sort key past its step) rewrites this narrow row
 * and the order indexes only, never the market's wide row with its lookup and GIN indexes (before
 * drizzle/0023 a rank move wrote an entry in all 14 indexes of `markets`; docs/performance.md,
 * "Catalog writes"). Written only by lib/catalog/store.ts: with every new market, on a rank move,
 * and when a copied column changed on `markets`. One row per market, always.
 * The list order is (volume24h desc, id desc): every rank index ends with those two columns so a
 * keyset cursor walks an index.
 */
export const marketRanks = pgTable(
  "market_ranks",
  {
    id: uuid("id")
      .primaryKey()
      .references(() => markets.id, { onDelete: "cascade" }),
    /**
     * Rank keys: each holds the value as of the last poll that moved it by more than a step
     * (lib/catalog/store.ts `rankMoved`), so most polls rewrite nothing here; answers show the
     * current values from `market_quotes`.
     */
    volume24h: doublePrecision("volume24h").notNull().default(0),
    /** Largest absolute 24-hour price change among the outcomes (`sort=change24h`). */
    absChange24h: doublePrecision("abs_change24h").notNull().default(0),
    /** `sort=liquidity`; the current value is `market_quotes.liquidity`. */
    liquidity: doublePrecision("liquidity"),
    /** Copies of `markets`' columns of the same names (the listing's filters and its two other orders). */
    venue: text("venue").notNull(),
    category: text("category").notNull(),
    closed: boolean("closed").notNull().default(false),
    resolutionDate: timestamp("resolution_date", { withTimezone: true }),
    firstSeenAt: timestamp("first_seen_at", { withTimezone: true }).notNull(),
    /** A copy of `markets.search_vector`: carried by the rank indexes (INCLUDE) so a frequent search walks one index-only. */
    searchVector: tsvector("search_vector").notNull(),
  },
  (t) => [
    // Also carries `closed` and `search_vector` (INCLUDE, drizzle/0023): a search for a frequent word
    // walks it in volume order without visiting the table (lib/catalog/search.ts).
    index("market_ranks_rank_idx").on(t.volume24h.desc(), t.id.desc()),
    // Also carry `closed` and `search_vector` (INCLUDE, drizzle/0023): a frequent search within a venue or a category walks them.
    index("market_ranks_venue_rank_idx").on(t.venue, t.volume24h.desc(), t.id.desc()),
    index("market_ranks_category_rank_idx").on(t.category, t.volume24h.desc(), t.id.desc()),
    index("market_ranks_category_venue_rank_idx").on(t.category, t.venue, t.volume24h.desc(), t.id.desc()),
    // The other list orders, over open markets only (the default filter): closed rows, most of a
    // mature catalog, never touch them. Keys match lib/catalog/list.ts `sortKey` expression for expression.
    // Each also carries `search_vector` (INCLUDE, drizzle/0027), the two keyed by a `coalesce` their column
    // too: a frequent search in any order walks its index index-only, as in the default order.
    index("market_ranks_change_rank_idx").on(t.absChange24h.desc(), t.id.desc()).where(sql`closed = false`),
    index("market_ranks_liquidity_rank_idx")
      .on(sql`coalesce(${t.liquidity}, '-Infinity'::float8) desc`, t.id.desc())
      .where(sql`closed = false`),
    index("market_ranks_resolution_rank_idx")
      .on(sql`coalesce(${t.resolutionDate}, 'infinity'::timestamptz)`, t.id)
      .where(sql`closed = false`),
    index("market_ranks_newest_rank_idx").on(t.firstSeenAt.desc(), t.id.desc()).where(sql`closed = false`),
  ],
);
