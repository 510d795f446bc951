import "server-only";
import { and, arrayContains, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { marketRanks } from "@/lib/db/schema/market-ranks";
import { markets, type OutcomeLabel, type StoredOutcome } from "@/lib/db/schema/markets";
import { marketQuotes } from "@/lib/db/schema/quotes";
import { marketColumns, quoteOfMarket, type MarketSelection } from "./public";

/**
 * The catalog's market reads for other folders (lib/catalog owns `markets` and `market_quotes`:
 * docs/architecture.md, "Layers and folders"): what a market is known by on its venue and its
 * outcomes, without the public shape (lib/catalog/resolve.ts has that).
 */
export interface MarketKeys {
  id: string;
  venue: string;
  venueMarketId: string;
  contractAddress: string | null;
  /** Outcome ids and labels, in the venue's order. */
  outcomes: OutcomeLabel[];
}

const keyColumns = { id: markets.id, venue: markets.venue, venueMarketId: markets.venueMarketId, contractAddress: markets.contractAddress, outcomes: markets.outcomes };

/** The market one of whose outcomes is `outcomeId` (undefined: none). */
export async function marketOfOutcome(db: Db, outcomeId: string): Promise<MarketKeys | undefined> {
  const [row] = await db.select(keyColumns).from(markets).where(arrayContains(markets.outcomeIds, [outcomeId])).limit(1);
  return row;
}

/**
 * The markets a venue knows by `key`: its contract address on any venue, or its venue market id
 * on the venues `byVenueMarketId` names (a Kalshi ticker).
 */
export async function marketsKnownBy(db: Db, key: string, byVenueMarketId: readonly string[]): Promise<MarketKeys[]> {
  return db
    .select(keyColumns)
    .from(markets)
    .where(or(eq(markets.contractAddress, key), and(inArray(markets.venue, [...byVenueMarketId]), eq(markets.venueMarketId, key))));
}

/** The outcomes (ids and labels, the venue's order) of the markets `ids` that exist. */
export async function outcomesOfMarkets(db: Db, ids: readonly string[]): Promise<Array<{ id: string; outcomes: OutcomeLabel[] }>> {
  return db.select({ id: markets.id, outcomes: markets.outcomes }).from(markets).where(inArray(markets.id, [...ids]));
}

/** The markets `ids` that exist, each as every reader of the catalog selects it (descriptive row and last quote; `toMarketPublic` shapes it), by id. */
export async function marketSelections(db: Db, ids: readonly string[]): Promise<Map<string, MarketSelection>> {
  const out = new Map<string, MarketSelection>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 1000) {
    const rows = await db
      .select(marketColumns)
      .from(markets)
      .innerJoin(marketQuotes, quoteOfMarket)
      .where(inArray(markets.id, unique.slice(i, i + 1000)));
    for (const row of rows) out.set(row.id, row);
  }
  return out;
}

/** A market with its last quote's outcomes (prices in the venue's order). */
export interface QuotedMarket {
  id: string;
  venue: string;
  venueMarketId: string;
  contractAddress: string | null;
  outcomes: StoredOutcome[];
}

const quotedColumns = { id: markets.id, venue: markets.venue, venueMarketId: markets.venueMarketId, contractAddress: markets.contractAddress, outcomes: marketQuotes.outcomes };

/** Open markets of `exchange` that have a contract address, by 24h volume descending (then id), with their last quotes; at most `limit`. */
export async function openQuotedMarkets(db: Db, options: { exchange: string; limit: number }): Promise<QuotedMarket[]> {
  return db
    .select(quotedColumns)
    .from(marketRanks)
    .innerJoin(markets, eq(markets.id, marketRanks.id))
    .innerJoin(marketQuotes, quoteOfMarket)
    .where(and(eq(marketRanks.venue, options.exchange), eq(marketRanks.closed, false), isNotNull(markets.contractAddress)))
    .orderBy(sql`${marketRanks.volume24h} desc`, sql`${marketRanks.id} desc`)
    .limit(options.limit);
}

/** The markets titled `title` (on any venue), with their last quotes. */
export async function quotedMarketsTitled(db: Db, title: string): Promise<QuotedMarket[]> {
  return db.select(quotedColumns).from(markets).innerJoin(marketQuotes, quoteOfMarket).where(eq(markets.title, title));
}

/** What describes a market to a reader who shows it (a review queue, an audit). */
export interface DescribedMarket {
  id: string;
  venue: string;
  venueMarketId: string;
  title: string;
  description: string | null;
  resolutionDate: Date | null;
}

/** The markets `ids` that exist, described (no prices). */
export async function describedMarkets(db: Db, ids: readonly string[]): Promise<DescribedMarket[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: markets.id, venue: markets.venue, venueMarketId: markets.venueMarketId, title: markets.title, description: markets.description, resolutionDate: markets.resolutionDate })
    .from(markets)
    .where(inArray(markets.id, [...new Set(ids)]));
}

/** The catalog ids of `venue`'s markets `venueMarketIds` that exist, with their venue market id. */
export async function marketIdsOnVenue(db: Db, venue: string, venueMarketIds: readonly string[]): Promise<Array<{ id: string; venueMarketId: string }>> {
  return db
    .select({ id: markets.id, venueMarketId: markets.venueMarketId })
    .from(markets)
    .where(and(eq(markets.venue, venue), inArray(markets.venueMarketId, [...venueMarketIds])));
}
