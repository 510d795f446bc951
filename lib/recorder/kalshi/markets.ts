import "server-only";
import { topVenueMarketIds } from "@/lib/catalog/assets";
import type { Db } from "@/lib/db";

/**
 * The Kalshi recorder's subscription list: open Kalshi markets of the catalog by 24h volume
 * descending, as market tickers (the catalog's venue market id; its outcomes are the ticker and
 * ticker-NO, both recorded from the one market channel).
 */
export async function topKalshiTickers(db: Db, limit: number): Promise<string[]> {
  return topVenueMarketIds(db, { exchange: "kalshi", limit });
}
