import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Per-key limits held across instances (stream subscriptions and connections, SQL queries, venue
 * calls in flight): one row per held unit group. A row lives while its instance renews it; a killed
 * instance stops renewing and its rows stop counting once `expires_at` passes (lib/limits).
 * Taken through `brier_take_lease` (same migration), which serialises takers of one bucket.
 */
export const limitLeases = pgTable(
  "limit_leases",
  {
    id: text("id").primaryKey(),
    /** What is limited and for whom: `stream-subscriptions:key:<id>`, `sql:key:<id>`, ... */
    bucket: text("bucket").notNull(),
    /** The instance (process) holding it; it renews all of its rows in one statement. */
    holder: text("holder").notNull(),
    weight: integer("weight").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("limit_leases_bucket_idx").on(t.bucket), index("limit_leases_holder_idx").on(t.holder), index("limit_leases_expires_at_idx").on(t.expiresAt)],
);
