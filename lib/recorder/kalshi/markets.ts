import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { listedByVenue } from "@/lib/catalog/assets";
import { markets } from "@/lib/db/schema/markets";

/**
 * The Kalshi recorder's subscription list: open Kalshi markets of the catalog by 24h volume
 * descending, as market tickers (the catalog's venue market id; its outcomes are the ticker and
 * ticker-NO, both recorded from the one market channel).
 */
export async function topKalshiTickers(db: Db, limit: number): Promise<string[]> {
  const count = Math.max(0, Math.floor(limit));
  if (count === 0) return [];
  const rows = await db
    .select({ ticker: markets.venueMarketId })
    .from(markets)
    .where(and(eq(markets.venue, "kalshi"), eq(markets.closed, false), listedByVenue))
    .orderBy(sql`${markets.volume24h} desc nulls last`, sql`${markets.id} desc nulls last`)
    .limit(count);
  return rows.map((row) => row.ticker);
}
