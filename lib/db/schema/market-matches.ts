import { sql } from "drizzle-orm";
import { doublePrecision, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { markets } from "./markets";

/**
 * Cross-venue matches with their validity interval. One row per version of a pair's verdict:
 * a verdict that changes (relation, confidence, reasoning, engine) or disappears is closed
 * (`valid_to` set) and a new row opened, never rewritten, so `asOf=` can answer what was known
 * then. The pair is stored once, `market_a` < `market_b`; `relation` reads from A to B.
 */
export const marketMatches = pgTable(
  "market_matches",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    marketA: uuid("market_a")
      .notNull()
      .references(() => markets.id, { onDelete: "cascade" }),
    marketB: uuid("market_b")
      .notNull()
      .references(() => markets.id, { onDelete: "cascade" }),
    /** identity | subset | superset | overlap | disjoint, from A to B. */
    relation: text("relation").notNull(),
    confidence: doublePrecision("confidence").notNull(),
    reasoning: text("reasoning").notNull(),
    /** What the two state differently or one side only, as data (lib/matching/compare/types.ts `Difference`, A's values first). */
    differences: jsonb("differences").notNull().default(sql`'[]'::jsonb`),
    engineVersion: text("engine_version").notNull(),
    /** When the pair was first matched by any version of the engine (carried across versions). */
    firstSeenAt: timestamp("first_seen_at", { withTimezone: true }).notNull().defaultNow(),
    /** Last run that found this same verdict. */
    lastConfirmedAt: timestamp("last_confirmed_at", { withTimezone: true }).notNull().defaultNow(),
    validFrom: timestamp("valid_from", { withTimezone: true }).notNull().defaultNow(),
    /** Null while current. */
    validTo: timestamp("valid_to", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("market_matches_current_pair_idx").on(t.marketA, t.marketB).where(sql`valid_to is null`),
    index("market_matches_b_current_idx").on(t.marketB).where(sql`valid_to is null`),
    index("market_matches_a_history_idx").on(t.marketA, t.validFrom),
    index("market_matches_b_history_idx").on(t.marketB, t.validFrom),
    index("market_matches_relation_current_idx").on(t.relation, t.confidence.desc()).where(sql`valid_to is null`),
  ],
);

/**
 * What the matching engine read from each market, and a fingerprint of the text it read it
 * from: an incremental run re-reads only markets whose fingerprint changed.
 */
export const matchFeatures = pgTable(
  "match_features",
  {
    marketId: uuid("market_id")
      .primaryKey()
      .references(() => markets.id, { onDelete: "cascade" }),
    venue: text("venue").notNull(),
    /** md5 of title, event title, Yes label, description, resolution date and closed flag. */
    fingerprint: text("fingerprint").notNull(),
    /** Candidate index keys (topic words, option, month of the deadline, unit). */
    keys: text("keys").array().notNull(),
    features: jsonb("features").notNull(),
    engineVersion: text("engine_version").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("match_features_keys_idx").using("gin", t.keys)],
);

export type MarketMatchRow = typeof marketMatches.$inferSelect;

/**
 * Operators' reviews of matched pairs (the verified tier, docs/matching.md "Review queue"): one row
 * per pair (`market_a` < `market_b`), the latest review winning. `verdict` is `confirmed` or
 * `rejected` once reviewed, null while the pair waits in the queue with a `proposed` verdict (a
 * pair whose two markets resolved differently arrives as a proposed rejection, `source` =
 * `outcomes`). `relation` is the relation the reviewer confirmed, read from A to B.
 */
export const matchReviews = pgTable(
  "match_reviews",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    marketA: uuid("market_a")
      .notNull()
      .references(() => markets.id, { onDelete: "cascade" }),
    marketB: uuid("market_b")
      .notNull()
      .references(() => markets.id, { onDelete: "cascade" }),
    /** confirmed | rejected; null while waiting. */
    verdict: text("verdict"),
    /** What a proposer (outcomes) suggests, shown in the queue: rejected. */
    proposed: text("proposed"),
    /** The relation confirmed (from A to B); for a rejection, the relation that was claimed. */
    relation: text("relation").notNull(),
    reason: text("reason").notNull().default(""),
    /** Who reviewed it (the operator's email, or `import:<email>` for an imported review). */
    reviewer: text("reviewer"),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    /** operator | outcomes | import */
    source: text("source").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("match_reviews_pair_idx").on(t.marketA, t.marketB), index("match_reviews_pending_idx").on(t.createdAt).where(sql`verdict is null`)],
);

/**
 * The settlement terms a market's venue states as fields (strike kind, floor and cap, secondary
 * rules, named sources; `lib/recorder/<venue>/settlement.ts` reads them), kept for matching, which
 * compares them before the rules' text. `read_at` is the last read that saw the market;
 * `changed_at` when its fields last changed; `hash` (md5 of the fields) joins the text's
 * fingerprint, so a change re-reads the market.
 */
export const marketSettlementFields = pgTable("market_settlement_fields", {
  marketId: uuid("market_id")
    .primaryKey()
    .references(() => markets.id, { onDelete: "cascade" }),
  fields: jsonb("fields").notNull(),
  hash: text("hash").notNull(),
  readAt: timestamp("read_at", { withTimezone: true }).notNull(),
  changedAt: timestamp("changed_at", { withTimezone: true }).notNull(),
});
