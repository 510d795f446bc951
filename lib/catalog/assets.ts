import "server-only";
import { and, eq, isNotNull, isNull, ne, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { marketRanks } from "@/lib/db/schema/market-ranks";
import { markets } from "@/lib/db/schema/markets";

/**
 * The `status` of catalog markets that no venue lists: the SYNTHETIC demo pair `admin demo-ticks`
 * writes (lib/demo/pair.ts). No recorder follows them (a venue would answer nothing).
 */
export const SYNTHETIC_STATUS = "synthetic";

/** Markets a recorder may follow: listed by their venue (not synthetic). */
export const listedByVenue = or(isNull(markets.status), ne(markets.status, SYNTHETIC_STATUS));

export interface OutcomeToken {
  conditionId: string;
  outcomeId: string;
  marketId: string;
  volume24h: number;
}

/**
 * The tick recorder's subscription list: open markets of `exchange` that have a contract address,
 * by 24h volume descending, one entry per outcome token, at most `limit` tokens (whole markets
 * only, so a market's YES and NO tokens are never split across the cut).
 */
export async function topOutcomeTokens(db: Db, options: { exchange: string; limit: number }): Promise<OutcomeToken[]> {
  const limit = Math.max(0, Math.floor(options.limit));
  if (limit === 0) return [];
  const rows = await db
    .select({
      id: markets.id,
      contractAddress: markets.contractAddress,
      outcomeIds: markets.outcomeIds,
      volume24h: marketRanks.volume24h,
    })
    .from(marketRanks)
    .innerJoin(markets, eq(markets.id, marketRanks.id))
    .where(and(eq(marketRanks.venue, options.exchange), eq(marketRanks.closed, false), isNotNull(markets.contractAddress), listedByVenue))
    .orderBy(sql`${marketRanks.volume24h} desc nulls last`, sql`${marketRanks.id} desc nulls last`)
    // Most markets have two tokens; a market never has zero rows here unless outcomes are empty.
    .limit(limit);
  const tokens: OutcomeToken[] = [];
  for (const row of rows) {
    if (row.contractAddress === null || row.outcomeIds.length === 0) continue;
    if (tokens.length + row.outcomeIds.length > limit) break;
    for (const outcomeId of row.outcomeIds) {
      tokens.push({ conditionId: row.contractAddress, outcomeId, marketId: row.id, volume24h: row.volume24h });
    }
  }
  return tokens;
}

/**
 * Open markets of `exchange` listed by their venue, by 24h volume descending, as the venue's market
 * ids, at most `limit` (a recorder that subscribes by market, such as Kalshi's by ticker).
 */
export async function topVenueMarketIds(db: Db, options: { exchange: string; limit: number }): Promise<string[]> {
  const limit = Math.max(0, Math.floor(options.limit));
  if (limit === 0) return [];
  const rows = await db
    .select({ venueMarketId: markets.venueMarketId })
    .from(marketRanks)
    .innerJoin(markets, eq(markets.id, marketRanks.id))
    .where(and(eq(marketRanks.venue, options.exchange), eq(marketRanks.closed, false), listedByVenue))
    .orderBy(sql`${marketRanks.volume24h} desc nulls last`, sql`${marketRanks.id} desc nulls last`)
    .limit(limit);
  return rows.map((row) => row.venueMarketId);
}
