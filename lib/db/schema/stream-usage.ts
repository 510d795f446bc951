import { bigint, bigserial, doublePrecision, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * Stream usage (/ws and /v0/stream): one row per session per sample (every minute while open, and
 * when it closes), written in batches off the hot path. No foreign keys, like `usage`.
 */
export const streamUsage = pgTable(
  "stream_usage",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    accountId: uuid("account_id").notNull(),
    /** Null for a dashboard session (SSE with the session cookie). */
    keyId: uuid("key_id"),
    /** `ws` or `sse`. */
    surface: text("surface").notNull(),
    /** Subscription-seconds in the sample: two subscriptions open for 30 s = 60. */
    streamSeconds: doublePrecision("stream_seconds").notNull(),
    /** Data messages delivered in the sample. */
    messages: bigint("messages", { mode: "number" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("stream_usage_key_id_created_at_idx").on(t.keyId, t.createdAt),
    index("stream_usage_account_id_created_at_idx").on(t.accountId, t.createdAt),
  ],
);

export type StreamUsageRow = typeof streamUsage.$inferInsert;
