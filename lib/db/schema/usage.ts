import { bigserial, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * One row per authenticated request, written in batches after the response.
 * No foreign keys: usage outlives revoked keys and is written off the hot path.
 */
export const usage = pgTable(
  "usage",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    accountId: uuid("account_id").notNull(),
    /** Null when the request was authenticated by a dashboard session. */
    keyId: uuid("key_id"),
    method: text("method").notNull(),
    /** The route pattern (`/api/[exchange]/[method]` resolved to its values), never the query string. */
    path: text("path").notNull(),
    status: integer("status").notNull(),
    durationMs: integer("duration_ms").notNull(),
    requestId: text("request_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("usage_key_id_created_at_idx").on(t.keyId, t.createdAt),
    index("usage_account_id_created_at_idx").on(t.accountId, t.createdAt),
  ],
);

export type UsageRow = typeof usage.$inferInsert;
