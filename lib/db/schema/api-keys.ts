import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

/** API keys. Only the SHA-256 of a key is stored; `prefix` is the part shown in listings. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** First characters of the key (`brier_live_` + 8), enough to recognise it, useless to use it. */
    prefix: text("prefix").notNull(),
    /** Lower-case hex SHA-256 of the whole key. */
    hash: text("hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Debounced: written by the usage flusher at most once a minute per key. */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("api_keys_hash_idx").on(t.hash),
    index("api_keys_account_id_idx").on(t.accountId),
    index("api_keys_prefix_idx").on(t.prefix),
  ],
);
