import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * At most one ingestion per venue at a time, across processes and instances: a run takes the
 * venue's row with an atomic upsert that only succeeds when the previous lease expired.
 * A lease row (not a session advisory lock) because postgres.js pools connections.
 */
export const ingestLeases = pgTable("ingest_leases", {
  venue: text("venue").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});
