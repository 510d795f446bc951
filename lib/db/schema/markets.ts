import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { events, searchVectorOf, tsvector } from "./events";

/** One outcome as a poll sends it and `market_quotes.outcomes` stores it (prices are probabilities 0..1). */
export interface StoredOutcome {
  outcomeId: string;
  label: string;
  price: number;
  priceChange24h: number;
}

/** One outcome as `markets.outcomes` stores it: what describes it, not its price (that is in `market_quotes`). */
export type OutcomeLabel = Pick<StoredOutcome, "outcomeId" | "label">;

/**
 * Catalog markets, one row per (venue, venue-native market id); `id` is UUID v5 of that pair:
 * what describes a market, which changes seldom, under the indexes that look a market up. Its
 * prices and volumes, which change on every poll, live in `market_quotes` (./quotes.ts), and its
 * rank keys with the listing's order indexes in `market_ranks` (./market-ranks.ts), so neither a
 * price change nor a rank move rewrites a row here or any of the indexes below (docs/catalog.md,
 * docs/performance.md).
 */
export const markets = pgTable(
  "markets",
  {
    id: uuid("id").primaryKey(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    venue: text("venue").notNull(),
    venueMarketId: text("venue_market_id").notNull(),
    title: text("title").notNull(),
    slug: text("slug"),
    description: text("description"),
    category: text("category").notNull(),
    /** Outcome ids and labels, in the venue's order; their prices are in `market_quotes.outcomes`. */
    outcomes: jsonb("outcomes").$type<OutcomeLabel[]>().notNull(),
    /** `outcomes[].outcomeId`, kept as an array for the GIN lookup by outcome id. */
    outcomeIds: text("outcome_ids").array().notNull().default(sql`'{}'::text[]`),
    /** Venue-native lifecycle status (`active`, `closed`, `archived`, `settled`, ...). */
    status: text("status"),
    /** Set only on positive evidence: the venue said closed/resolved, or a direct lookup confirmed it. */
    closed: boolean("closed").notNull().default(false),
    resolutionDate: timestamp("resolution_date", { withTimezone: true }),
    /** Polymarket condition id (= ClickHouse column `market`); other venues' contract id when they have one. */
    contractAddress: text("contract_address"),
    url: text("url"),
    image: text("image"),
    /**
     * What `query=` searches (lib/catalog/search.ts): the title's words (weight A) and the slug's
     * (weight B), PostgreSQL full text with the `simple` configuration (lower-cased words, no
     * stemming, no stop words: titles name people, places and tickers in many languages). Under a
     * GIN index for rare words; copied into `market_ranks` (./market-ranks.ts), whose rank
     * indexes carry it for frequent ones (docs/catalog.md).
     */
    searchVector: tsvector("search_vector").generatedAlwaysAs(searchVectorOf),
    /** First ingestion that saw the market (`sort=newest`): set on insert, never by an update. */
    firstSeenAt: timestamp("first_seen_at", { withTimezone: true }).notNull().defaultNow(),
    /** The poll that last wrote this row's descriptive columns; `market_quotes.quoted_at` is the last price or volume change. */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * MD5 of the descriptive row as the ingestion that last wrote it sent it (every column but
     * last_seen_at and the rank keys; prices and volumes are not in this table):
     * a poll sending the same row again is skipped on this alone (lib/catalog/store.ts). Null when
     * another writer changed the row since (a closure), so the next poll compares it in full.
     */
    contentHash: text("content_hash"),
  },
  (t) => [
    uniqueIndex("markets_venue_market_id_venue_idx").on(t.venueMarketId, t.venue),
    index("markets_event_id_idx").on(t.eventId),
    index("markets_slug_idx").on(t.slug),
    index("markets_contract_address_idx").on(t.contractAddress),
    index("markets_outcome_ids_idx").using("gin", t.outcomeIds),
    // A pending list of 64 kB at most (drizzle/0026): every GIN search reads the whole list, 4 MB by default (docs/catalog.md, "Search").
    index("markets_search_vector_idx").using("gin", t.searchVector).with({ gin_pending_list_limit: 64 }),
  ],
);

export type MarketRow = typeof markets.$inferSelect;
/**
 * A market as a poll sends it (lib/catalog/normalize.ts -> lib/catalog/store.ts `upsertCatalog`):
 * the `markets` row with its outcomes priced, and the volumes only `market_quotes` stores.
 */
export type NewMarketRow = Omit<typeof markets.$inferInsert, "outcomes"> & {
  outcomes: StoredOutcome[];
  /** Rank keys (`market_ranks`); the absolute 24-hour change defaults to the outcomes' largest. */
  volume24h?: number | null;
  absChange24h?: number | null;
  liquidity?: number | null;
  volume?: number | null;
  openInterest?: number | null;
};
