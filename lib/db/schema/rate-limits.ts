import { integer, pgTable, primaryKey, text, timestamp, index } from "drizzle-orm/pg-core";

/**
 * Fixed-window request counters shared by every server instance.
 * One row per (bucket, window); old windows are pruned by the usage flusher.
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    /** `key:<api key id>` or `account:<account id>` for dashboard sessions. */
    bucket: text("bucket").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    count: integer("count").notNull(),
  },
  (t) => [
    primaryKey({ name: "rate_limits_pkey", columns: [t.bucket, t.windowStart] }),
    index("rate_limits_window_start_idx").on(t.windowStart),
  ],
);
