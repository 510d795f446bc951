import { sql } from "drizzle-orm";
import { boolean, customType, doublePrecision, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

/** PostgreSQL's `tsvector` (full-text words), read back as its text form; only ever written by a generated column. */
export const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * The search vector of a catalog row (markets and events): its title's words with weight A, its
 * slug's with weight B (hyphens, underscores, dots and slashes split a slug into words), lower-cased
 * by the `simple` configuration. lib/catalog/search.ts builds the queries that match it.
 */
export const searchVectorOf = sql`setweight(to_tsvector('simple'::regconfig, title), 'A') || setweight(to_tsvector('simple'::regconfig, translate(coalesce(slug, ''), '-_./', '    ')), 'B')`;

/**
 * Catalog events, one row per (venue, venue-native event id). `id` is UUID v5 of that pair
 * (lib/catalog/ids.ts), so re-ingestion and rebuilds never change it.
 */
export const events = pgTable(
  "events",
  {
    id: uuid("id").primaryKey(),
    /** pmxt-core exchange key (`polymarket`, `kalshi`, `mock`, ...). */
    venue: text("venue").notNull(),
    venueEventId: text("venue_event_id").notNull(),
    title: text("title").notNull(),
    slug: text("slug"),
    description: text("description"),
    /** One of lib/catalog/categories.ts `categories`. */
    category: text("category").notNull(),
    /** The category as the venue sent it, before normalization. */
    venueCategory: text("venue_category"),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    image: text("image"),
    url: text("url"),
    /**
     * Rank keys, as for markets (./markets.ts): the list orders' sort keys, rewritten only when one
     * moved by more than a step; answers show `event_quotes` (./quotes.ts).
     */
    volume24h: doublePrecision("volume24h").notNull().default(0),
    /** Largest absolute 24-hour price change among its markets' outcomes (`sort=change24h`). */
    absChange24h: doublePrecision("abs_change24h").notNull().default(0),
    /** Sum of its markets' liquidity; null when none of them reports one (`sort=liquidity`). */
    liquidity: doublePrecision("liquidity"),
    /** True only once every market of the event is closed (positive evidence, never absence). */
    closed: boolean("closed").notNull().default(false),
    resolutionDate: timestamp("resolution_date", { withTimezone: true }),
    /** What `query=` searches, as for markets (./markets.ts, lib/catalog/search.ts). */
    searchVector: tsvector("search_vector").generatedAlwaysAs(searchVectorOf),
    /** First ingestion that saw the event (`sort=newest`): set on insert, never by an update. */
    firstSeenAt: timestamp("first_seen_at", { withTimezone: true }).notNull().defaultNow(),
    /** The poll that last wrote this row; `event_quotes.quoted_at` is the last volume change. */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * MD5 of the row as the ingestion that last wrote it sent it (every column but last_seen_at and
     * the rank keys):
     * a poll sending the same row again is skipped on this alone (lib/catalog/store.ts). Null when
     * another writer changed the row since (a closure), so the next poll compares it in full.
     */
    contentHash: text("content_hash"),
  },
  (t) => [
    uniqueIndex("events_venue_event_id_venue_idx").on(t.venueEventId, t.venue),
    // Also carries `closed` and `search_vector` (INCLUDE, drizzle/0019), as markets_rank_idx does.
    index("events_rank_idx").on(t.volume24h.desc(), t.id.desc()),
    index("events_venue_rank_idx").on(t.venue, t.volume24h.desc(), t.id.desc()),
    index("events_category_rank_idx").on(t.category, t.volume24h.desc(), t.id.desc()),
    // The other list orders, over open events only (see markets.ts).
    index("events_change_rank_idx").on(t.absChange24h.desc(), t.id.desc()).where(sql`closed = false`),
    index("events_liquidity_rank_idx")
      .on(sql`coalesce(${t.liquidity}, '-Infinity'::float8) desc`, t.id.desc())
      .where(sql`closed = false`),
    index("events_resolution_rank_idx")
      .on(sql`coalesce(${t.resolutionDate}, 'infinity'::timestamptz)`, t.id)
      .where(sql`closed = false`),
    index("events_newest_rank_idx").on(t.firstSeenAt.desc(), t.id.desc()).where(sql`closed = false`),
    index("events_slug_idx").on(t.slug),
    // A pending list of 64 kB at most (drizzle/0026), as markets_search_vector_idx.
    index("events_search_vector_idx").using("gin", t.searchVector).with({ gin_pending_list_limit: 64 }),
  ],
);

export type EventRow = typeof events.$inferSelect;
/** An event as a poll sends it: the `events` row and the volume only `event_quotes` stores. */
export type NewEventRow = typeof events.$inferInsert & { volume?: number | null };
