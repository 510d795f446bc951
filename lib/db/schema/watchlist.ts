import { index, pgTable, primaryKey, timestamp, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { markets } from "./markets";

/** Markets an account starred in the dashboard (GET/PUT/DELETE /v0/watchlist): one row per (account, market). */
export const watchlistItems = pgTable(
  "watchlist_items",
  {
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    marketId: uuid("market_id")
      .notNull()
      .references(() => markets.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "watchlist_items_pk", columns: [t.accountId, t.marketId] }),
    index("watchlist_items_account_created_idx").on(t.accountId, t.createdAt.desc()),
  ],
);
