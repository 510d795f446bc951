import "server-only";
import { and, desc, eq, sql } from "drizzle-orm";
import { marketSelections } from "@/lib/catalog/market-reads";
import { toMarketPublic } from "@/lib/catalog/public";
import { getMarketOrThrow } from "@/lib/catalog/resolve";
import type { Db } from "@/lib/db";
import { watchlistItems } from "@/lib/db/schema/watchlist";
import { InvalidParameterError } from "@/lib/errors";
import { watchlistItemResponse, watchlistResponse, type WatchlistItemResponse, type WatchlistResponse } from "./shapes";

/** An account's watchlist is a short list of starred markets; past this, PUT refuses. */
export const MAX_WATCHLIST = 500;

/** GET /v0/watchlist: the account's starred markets, most recently starred first. */
export async function listWatchlist(db: Db, accountId: string): Promise<WatchlistResponse> {
  const items = await db
    .select({ marketId: watchlistItems.marketId })
    .from(watchlistItems)
    .where(eq(watchlistItems.accountId, accountId))
    .orderBy(desc(watchlistItems.createdAt), desc(watchlistItems.marketId))
    .limit(MAX_WATCHLIST);
  // The markets as the catalog answers them, in the watchlist's order.
  const markets = await marketSelections(db, items.map((item) => item.marketId));
  const data = items.flatMap((item) => {
    const market = markets.get(item.marketId);
    return market === undefined ? [] : [toMarketPublic(market)];
  });
  return watchlistResponse.parse({ data });
}

/**
 * PUT /v0/watchlist/{marketId}: stars a market given by any reference GET /v0/markets/{id}
 * accepts (404 when none matches). Idempotent: starring twice keeps the first time.
 */
export async function addToWatchlist(db: Db, accountId: string, ref: string): Promise<WatchlistItemResponse> {
  const market = await getMarketOrThrow(db, ref);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(watchlistItems)
    .where(eq(watchlistItems.accountId, accountId));
  if (Number(count?.n ?? 0) >= MAX_WATCHLIST) {
    const existing = await db
      .select({ marketId: watchlistItems.marketId })
      .from(watchlistItems)
      .where(and(eq(watchlistItems.accountId, accountId), eq(watchlistItems.marketId, market.marketId)));
    if (existing.length === 0) {
      throw new InvalidParameterError("marketId", `the watchlist holds at most ${MAX_WATCHLIST} markets; remove one first`);
    }
  }
  await db.insert(watchlistItems).values({ accountId, marketId: market.marketId }).onConflictDoNothing();
  return watchlistItemResponse.parse({ data: market });
}

/** DELETE /v0/watchlist/{marketId}: unstars a market (404 for an unknown market; idempotent otherwise). */
export async function removeFromWatchlist(db: Db, accountId: string, ref: string): Promise<WatchlistItemResponse> {
  const market = await getMarketOrThrow(db, ref);
  await db.delete(watchlistItems).where(and(eq(watchlistItems.accountId, accountId), eq(watchlistItems.marketId, market.marketId)));
  return watchlistItemResponse.parse({ data: market });
}
