import "server-only";
import { marketUuid } from "@/lib/catalog/ids";
import { marketLabels } from "@/lib/catalog/labels";
import type { Db } from "@/lib/db";
import { auditIdentityPairs } from "@/lib/matching/outcome-audit";
import { resolvedMarkets, type ResolvedMarketPosition } from "@/lib/outcomes/store";
import { tickRows, type TickReader } from "@/lib/ticks";
import { outcomesTable as outcomesTableName } from "@/lib/ticks/ddl/0006_market_outcomes";

/**
 * What calibration reads from other domains, each through its owner's functions: the outcomes'
 * table name and resolved markets (lib/outcomes), the identity pairs with their settlements
 * (lib/matching/outcome-audit.ts), and the catalog's categories and titles.
 */

export const outcomesTable = outcomesTableName;

/** Venues with at least one resolved market. */
export async function venuesWithOutcomes(ticks: TickReader): Promise<string[]> {
  const rows = await tickRows<[string]>(ticks, `SELECT DISTINCT venue FROM ${outcomesTable} WHERE state IN ('determined', 'settled') ORDER BY venue`);
  return rows.map(([venue]) => venue);
}

const PAGE = 5_000;

/**
 * Per venue, the books keys of the markets of `category` that resolved with a close in [since, until):
 * the resolved markets from lib/outcomes, their categories from the catalog.
 */
export async function categoryMarketKeys(db: Db, category: string, venues: readonly string[], since: Date, until: Date): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  let after: ResolvedMarketPosition | undefined;
  for (;;) {
    const page = await resolvedMarkets(db, { venue: venues, since, until, after, limit: PAGE });
    if (page.length === 0) break;
    const byId = new Map(page.map((m) => [marketUuid(m.venue, m.venueMarketId), m]));
    const labels = await marketLabels(db, [...byId.keys()]);
    for (const [id, label] of labels) {
      const market = byId.get(id);
      if (market === undefined || label.category !== category) continue;
      const list = out.get(market.venue) ?? [];
      list.push(market.market);
      out.set(market.venue, list);
    }
    const last = page[page.length - 1];
    if (page.length < PAGE || last === undefined) break;
    after = { closedAt: last.closedAt, venue: last.venue, venueMarketId: last.venueMarketId };
  }
  return out;
}

/** Catalog titles by market id. */
export async function titlesOf(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [id, label] of await marketLabels(db, ids)) out.set(id, label.title);
  return out;
}

/** One side of an identity pair, as head to head reads it. */
export interface PairSideForCalibration {
  marketId: string;
  venue: string;
  /** Books key (the outcomes' `market`). */
  market: string;
}

export interface PairForCalibration {
  a: PairSideForCalibration;
  b: PairSideForCalibration;
}

/**
 * The identity pairs touching `venues` whose two markets both resolved, through matching's own
 * audit: those that settled alike (scored head to head) and how many did not (proven false
 * identities, counted and left out). A pair counts when both closes fall in [since, until).
 */
export async function identityPairsForCalibration(db: Db, venues: readonly string[], since: number, until: number): Promise<{ agreeing: PairForCalibration[]; disagreed: number }> {
  const inWindow = (t: Date | null) => t !== null && t.getTime() >= since && t.getTime() < until;
  const agreeing: PairForCalibration[] = [];
  let disagreed = 0;
  for (const pair of await auditIdentityPairs(db, { venues })) {
    if (pair.verdict === "unresolved" || !inWindow(pair.a.closedAt) || !inWindow(pair.b.closedAt)) continue;
    if (pair.verdict === "disagreed") {
      disagreed += 1;
      continue;
    }
    if (pair.a.market === null || pair.b.market === null) continue;
    agreeing.push({ a: { marketId: pair.a.marketId, venue: pair.a.venue, market: pair.a.market }, b: { marketId: pair.b.marketId, venue: pair.b.venue, market: pair.b.market } });
  }
  return { agreeing, disagreed };
}
