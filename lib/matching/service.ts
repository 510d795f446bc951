import "server-only";
import { and, desc, eq, gt, gte, ilike, inArray, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import { containsPattern } from "@/lib/catalog/list";
import { marketSelections } from "@/lib/catalog/market-reads";
import { marketSides } from "@/lib/catalog/market-views";
import { toMarketPublic, type MarketSelection } from "@/lib/catalog/public";
import { getEventOrThrow, getMarketOrThrow } from "@/lib/catalog/resolve";
import type { EventPublic } from "@/lib/catalog/shapes";
import type { Db } from "@/lib/db";
import { marketMatches, matchFeatures, matchReviews, type MarketMatchRow } from "@/lib/db/schema/market-matches";
import type { BookPriceReader, BookPrices } from "@/lib/live/book-prices";
import { outcomesOfPairs } from "./outcome-audit";
import { invertDifference, type Difference } from "./compare/types";
import { invertRelation, type Relation } from "./relations";
import { compareRuleTerms, type RuleDifference, type RuleTermsOf } from "./rules";
import {
  arbitrageResponse,
  browseEventMatchesResponse,
  eventMatchesResponse,
  marketMatchesResponse,
  matchedPairsResponse,
  type ArbitrageQuery,
  type EventsMatchesQuery,
  type MarketMatchesQuery,
  type MatchedMarketPublic,
  type MatchedMarketsQuery,
} from "./shapes";

const relationRank: Record<Relation, number> = { identity: 0, subset: 1, superset: 2, overlap: 3, disjoint: 4 };

/** The matches valid at `asOf` (default: the current ones). */
function validAt(asOf: Date | undefined): SQL {
  if (asOf === undefined) return isNull(marketMatches.validTo);
  return and(lte(marketMatches.validFrom, asOf), or(isNull(marketMatches.validTo), gt(marketMatches.validTo, asOf))) as SQL;
}

/** An operator confirmed the pair with the relation now stated (lib/matching/reviews.ts). */
const verifiedSql = sql<boolean>`exists (select 1 from ${matchReviews} where ${matchReviews.marketA} = ${marketMatches.marketA} and ${matchReviews.marketB} = ${marketMatches.marketB} and ${matchReviews.verdict} = 'confirmed' and ${matchReviews.relation} = ${marketMatches.relation})`;

/** The `verified` filter as a condition (none when absent). */
const verifiedIs = (verified: boolean | undefined): SQL | undefined => (verified === undefined ? undefined : verified ? verifiedSql : sql`not ${verifiedSql}`);

const yesPrice = (row: MarketSelection): number => row.outcomes[0]?.price ?? 0;

/** Best bid/ask per market id when `includePrices=true` was asked; undefined otherwise. */
type Prices = Map<string, BookPrices> | undefined;

const pricesFor = async (prices: BookPriceReader, includePrices: boolean, rows: Iterable<MarketSelection>): Promise<Prices> => (includePrices ? prices([...rows]) : undefined);

/** A catalog market in the matching endpoints' shape; with prices, the book's best Yes bid/ask and the catalog's last price. */
function publicMarket(row: MarketSelection, prices: Prices): MatchedMarketPublic {
  const base = toMarketPublic(row);
  const out: MatchedMarketPublic = { ...base, sourceExchange: base.exchange };
  if (prices !== undefined) {
    const book = prices.get(row.id) ?? { bestBid: null, bestAsk: null, priceSource: "no_outcome" as const };
    out.lastPrice = row.outcomes[0]?.price ?? null;
    out.bestBid = book.bestBid;
    out.bestAsk = book.bestAsk;
    out.priceSource = book.priceSource;
  }
  return out;
}

/**
 * The rule differences of each pair, read from the first market's side: compared from the rule
 * terms the engine stored for both markets (match_features), so the answer carries them as data
 * rather than as text to be read back out of the reasoning.
 */
async function ruleDifferencesOf(db: Db, pairList: Array<[string, string]>): Promise<(a: string, b: string) => RuleDifference[]> {
  const ids = [...new Set(pairList.flat())];
  const terms = new Map<string, RuleTermsOf>();
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await db
      .select({ id: matchFeatures.marketId, rules: sql<RuleTermsOf | null>`${matchFeatures.features}->'rules'` })
      .from(matchFeatures)
      .where(inArray(matchFeatures.marketId, ids.slice(i, i + 1000)));
    for (const row of rows) terms.set(row.id, row.rules ?? {});
  }
  return (a, b) => compareRuleTerms(terms.get(a) ?? {}, terms.get(b) ?? {});
}

/** A stored verdict's differences read from `self`'s side (they are stored from market A's). */
function differencesFrom(row: MarketMatchRow, self: string): Difference[] {
  const stored = row.differences as Difference[];
  return self === row.marketA ? stored : stored.map(invertDifference);
}

interface Oriented {
  row: MarketMatchRow;
  other: string;
  relation: Relation;
  verified: boolean;
}

/** The matches of the given markets, each read from the given market's side. */
async function matchesOf(db: Db, ids: string[], asOf: Date | undefined, minConfidence: number, verified?: boolean): Promise<Array<Oriented & { self: string }>> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ row: marketMatches, verified: verifiedSql })
    .from(marketMatches)
    .where(and(validAt(asOf), gte(marketMatches.confidence, minConfidence), or(inArray(marketMatches.marketA, ids), inArray(marketMatches.marketB, ids)), verifiedIs(verified)));
  const set = new Set(ids);
  const out: Array<Oriented & { self: string }> = [];
  for (const { row, verified: isVerified } of rows) {
    const rel = row.relation as Relation;
    if (set.has(row.marketA)) out.push({ row, self: row.marketA, other: row.marketB, relation: rel, verified: isVerified });
    if (set.has(row.marketB)) out.push({ row, self: row.marketB, other: row.marketA, relation: invertRelation(rel), verified: isVerified });
  }
  return out;
}

const byStrength = (x: Oriented, y: Oriented) =>
  relationRank[x.relation] - relationRank[y.relation] || y.row.confidence - x.row.confidence || (x.other < y.other ? -1 : 1);

/** GET /v0/markets/{id}/matches: the market and what other venues list about the same question. */
export async function getMarketMatches(db: Db, ref: string, query: MarketMatchesQuery, bookPrices: BookPriceReader) {
  const market = await getMarketOrThrow(db, ref);
  const found = (await matchesOf(db, [market.marketId], query.asOf, query.minConfidence ?? 0, query.verified))
    .filter((m) => query.relation === undefined || m.relation === query.relation)
    .sort(byStrength)
    .slice(0, query.limit);
  const rows = await marketSelections(db, [market.marketId, ...found.map((m) => m.other)]);
  const self = rows.get(market.marketId);
  const prices = await pricesFor(bookPrices, query.includePrices, rows.values());
  const differences = await ruleDifferencesOf(db, found.map((m) => [market.marketId, m.other]));
  const settled = await outcomesOfPairs(db, found.map((m) => [market.marketId, m.other]));
  return marketMatchesResponse.parse({
    data: {
      market: self === undefined ? { ...market, sourceExchange: market.exchange } : publicMarket(self, prices),
      matches: found.flatMap((m) => {
        const other = rows.get(m.other);
        if (other === undefined) return [];
        return [
          {
            market: publicMarket(other, prices),
            relation: m.relation,
            confidence: m.row.confidence,
            reasoning: m.row.reasoning,
            differences: differencesFrom(m.row, market.marketId),
            ruleDifferences: differences(market.marketId, m.other),
            verified: m.verified,
            firstSeenAt: m.row.firstSeenAt.toISOString(),
            validFrom: m.row.validFrom.toISOString(),
            validTo: m.row.validTo === null ? null : m.row.validTo.toISOString(),
            engineVersion: m.row.engineVersion,
            outcomes: settled.get(`${market.marketId}:${m.other}`),
          },
        ];
      }),
    },
  });
}

/** Events (with only their matched markets) for the given market rows, keyed by event id. */
async function eventsFor(db: Db, eventIds: string[]): Promise<Map<string, EventPublic>> {
  const out = new Map<string, EventPublic>();
  for (const id of new Set(eventIds)) out.set(id, await getEventOrThrow(db, id));
  return out;
}

/** GET /v0/events/{id}/matches: matched events, each with the market-level matches behind it. */
export async function getEventMatches(db: Db, ref: string, query: MarketMatchesQuery, bookPrices: BookPriceReader) {
  const event = await getEventOrThrow(db, ref);
  const ids = event.markets.map((m) => m.marketId);
  const titles = new Map(event.markets.map((m) => [m.marketId, m.title]));
  const found = (await matchesOf(db, ids, query.asOf, query.minConfidence ?? 0, query.verified))
    .filter((m) => query.relation === undefined || m.relation === query.relation)
    .sort(byStrength);
  const rows = await marketSelections(db, found.map((m) => m.other));
  const byEvent = new Map<string, typeof found>();
  for (const m of found) {
    const other = rows.get(m.other);
    if (other === undefined) continue;
    const list = byEvent.get(other.eventId) ?? [];
    list.push(m);
    byEvent.set(other.eventId, list);
  }
  const eventIds = [...byEvent.keys()].slice(0, query.limit);
  const others = await eventsFor(db, eventIds);
  const shownEvents = new Set(eventIds);
  const prices = await pricesFor(bookPrices, query.includePrices, [...rows.values()].filter((r) => shownEvents.has(r.eventId)));
  const differences = await ruleDifferencesOf(db, found.filter((m) => shownEvents.has(rows.get(m.other)?.eventId ?? "")).map((m) => [m.self, m.other]));
  return eventMatchesResponse.parse({
    data: {
      event,
      matches: eventIds.flatMap((eventId) => {
        const e = others.get(eventId);
        const list = byEvent.get(eventId) ?? [];
        if (e === undefined) return [];
        const matchedIds = new Set(list.map((m) => m.other));
        return [
          {
            event: { ...e, markets: [...matchedIds].flatMap((id) => { const r = rows.get(id); return r === undefined ? [] : [publicMarket(r, prices)]; }) },
            marketMatches: list.flatMap((m) => {
              const other = rows.get(m.other);
              if (other === undefined) return [];
              return [
                {
                  sourceMarket: { id: m.self, title: titles.get(m.self) ?? "" },
                  market: publicMarket(other, prices),
                  relation: m.relation,
                  confidence: m.row.confidence,
                  reasoning: m.row.reasoning,
                  differences: differencesFrom(m.row, m.self),
                  ruleDifferences: differences(m.self, m.other),
                  verified: m.verified,
                },
              ];
            }),
          },
        ];
      }),
    },
  });
}

// Both markets of a pair as the catalog shows them: the last poll's Yes price (market_quotes), as every answer shows it.
const marketA = marketSides("market_a_row");
const marketB = marketSides("market_b_row");
const priceA = marketA.yesPrice;
const priceB = marketB.yesPrice;

/** Current (or asOf) pairs with both markets, filtered in SQL, strongest price difference first. */
async function pairs(
  db: Db,
  filter: { relations: Relation[]; minConfidence: number; category?: string; query?: string; asOf?: Date; minDifference?: number; maxDifference?: number; verified?: boolean },
  order: SQL,
  limit: number,
) {
  const difference = sql<number>`abs(${priceA} - ${priceB})`;
  // A pair is stored once; subset from one side is superset from the other, so either spelling selects it.
  const spellings = [...new Set(filter.relations.flatMap((r) => [r, invertRelation(r)]))];
  const conditions: SQL[] = [validAt(filter.asOf), inArray(marketMatches.relation, spellings), gte(marketMatches.confidence, filter.minConfidence)];
  if (filter.category !== undefined) conditions.push(eq(marketA.category, filter.category), eq(marketB.category, filter.category));
  if (filter.query !== undefined) {
    const pattern = containsPattern(filter.query);
    conditions.push(or(ilike(marketA.title, pattern), ilike(marketB.title, pattern)) as SQL);
  }
  if (filter.minDifference !== undefined) conditions.push(sql`${difference} >= ${filter.minDifference}`);
  if (filter.maxDifference !== undefined) conditions.push(sql`${difference} <= ${filter.maxDifference}`);
  const verified = verifiedIs(filter.verified);
  if (verified !== undefined) conditions.push(verified);
  const rows = await db
    .select({ match: marketMatches, verified: verifiedSql })
    .from(marketMatches)
    .innerJoin(marketA, eq(marketA.id, marketMatches.marketA))
    .innerJoin(marketB, eq(marketB.id, marketMatches.marketB))
    .where(and(...conditions))
    .orderBy(order, desc(marketMatches.confidence), marketMatches.id)
    .limit(limit);
  // Both markets as every answer reads them (descriptive row and quote), by id.
  const loaded = await marketSelections(db, rows.flatMap((r) => [r.match.marketA, r.match.marketB]));
  return rows.flatMap(({ match, verified: isVerified }) => {
    const [a, b] = [loaded.get(match.marketA), loaded.get(match.marketB)];
    return a === undefined || b === undefined ? [] : [{ match, a, b, verified: isVerified }];
  });
}

/** A stored pair read in the direction the caller asked for (A is the subset side when `subset` was asked). */
function orient<R extends { match: MarketMatchRow; a: MarketSelection; b: MarketSelection }>(row: R, wanted: Relation[]): R & { relation: Relation } {
  const relation = row.match.relation as Relation;
  if (wanted.includes(relation)) return { ...row, relation };
  return { ...row, a: row.b, b: row.a, relation: invertRelation(relation) };
}

/** GET /v0/matched-markets and /v0/matched-prices: matched pairs by Yes price difference. */
export async function browseMatchedMarkets(db: Db, query: MatchedMarketsQuery, bookPrices: BookPriceReader) {
  const relations: Relation[] = query.relation !== undefined ? [query.relation] : query.relations;
  const minDifference = query.minDifference ?? 0;
  const maxDifference = query.maxDifference ?? (minDifference > 0 ? 0.2 : undefined);
  const rows = await pairs(
    db,
    { relations, minConfidence: query.minConfidence ?? 0, category: query.category, query: query.query, asOf: query.asOf, minDifference, maxDifference, verified: query.verified },
    sql`abs(${priceA} - ${priceB}) desc`,
    query.limit,
  );
  const prices = await pricesFor(bookPrices, query.includePrices, rows.flatMap((r) => [r.a, r.b]));
  const oriented = rows.map((row) => orient(row, relations));
  const differences = await ruleDifferencesOf(db, oriented.map((r) => [r.a.id, r.b.id]));
  const settled = await outcomesOfPairs(db, oriented.map((r) => [r.a.id, r.b.id]));
  const data = oriented.map(({ match, a, b, relation, verified }) => ({
    marketA: publicMarket(a, prices),
    marketB: publicMarket(b, prices),
    venueA: a.venue,
    venueB: b.venue,
    priceA: yesPrice(a),
    priceB: yesPrice(b),
    priceDifference: Math.round(Math.abs(yesPrice(a) - yesPrice(b)) * 10000) / 10000,
    relation,
    confidence: match.confidence,
    reasoning: match.reasoning,
    differences: differencesFrom(match, a.id),
    ruleDifferences: differences(a.id, b.id),
    verified,
    outcomes: settled.get(`${a.id}:${b.id}`),
  }));
  return matchedPairsResponse.parse({ data, meta: { count: data.length, limit: query.limit } });
}

/** GET /v0/events/matches: event pairs with the market matches between them. */
export async function browseEventMatches(db: Db, query: EventsMatchesQuery) {
  const relations: Relation[] = query.relation !== undefined ? [query.relation] : ["identity", "subset", "superset", "overlap", "disjoint"];
  const rows = await pairs(
    db,
    { relations, minConfidence: query.minConfidence ?? 0, category: query.category, query: query.query, asOf: query.asOf, verified: query.verified },
    sql`${marketA.eventId}, ${marketB.eventId}`,
    5000,
  );
  const groups = new Map<string, typeof rows>();
  for (const row of rows) {
    const key = `${row.a.eventId}|${row.b.eventId}`;
    const list = groups.get(key) ?? [];
    list.push(row);
    groups.set(key, list);
  }
  const chosen = [...groups.values()]
    .sort((x, y) => y.length - x.length || ((x[0]?.a.eventId ?? "") < (y[0]?.a.eventId ?? "") ? -1 : 1))
    .slice(0, query.limit);
  const events = await eventsFor(db, chosen.map((g) => g[0]?.a.eventId ?? "").filter((id) => id !== ""));
  const differences = await ruleDifferencesOf(db, chosen.flat().map((r) => [r.a.id, r.b.id]));
  const data = chosen.flatMap((group) => {
    const first = group[0];
    const event = first === undefined ? undefined : events.get(first.a.eventId);
    if (first === undefined || event === undefined) return [];
    return [
      {
        event: { ...event, markets: group.map((r) => publicMarket(r.a, undefined)) },
        marketMatches: group.map((r) => ({
          sourceMarket: publicMarket(r.a, undefined),
          market: publicMarket(r.b, undefined),
          relation: r.match.relation,
          confidence: r.match.confidence,
          reasoning: r.match.reasoning,
          differences: differencesFrom(r.match, r.a.id),
          ruleDifferences: differences(r.a.id, r.b.id),
          verified: r.verified,
        })),
      },
    ];
  });
  return browseEventMatchesResponse.parse({ data, meta: { count: data.length, limit: query.limit } });
}

const cents = (v: number) => `${Math.round(v * 1000) / 10}¢`;

/**
 * GET /v0/arbitrage: price inconsistencies between matched markets. identity: buy Yes where it
 * is cheaper and No on the other side; subset A ⊂ B: Yes on A must not cost more than Yes on B;
 * disjoint: the two Yes prices must not sum above 1. Gross of fees and slippage.
 */
export async function findArbitrage(db: Db, query: ArbitrageQuery, bookPrices: BookPriceReader) {
  const relations = query.relations.filter((r) => r !== "overlap");
  const rows =
    relations.length === 0
      ? []
      : await pairs(db, { relations, minConfidence: query.minConfidence ?? 0, category: query.category, asOf: query.asOf, verified: query.verified }, sql`${marketMatches.confidence} desc`, 5000);
  const minSpread = query.minSpread ?? 0;
  const found = rows
    .flatMap(({ match, a, b, verified }) => {
      const pa = yesPrice(a);
      const pb = yesPrice(b);
      const relation = match.relation as Relation;
      let buy = a;
      let sell = b;
      let spread = 0;
      let how = "";
      if (relation === "identity") {
        [buy, sell] = pa <= pb ? [a, b] : [b, a];
        spread = Math.abs(pa - pb);
        how = `Same question: buy Yes on ${buy.venue} at ${cents(yesPrice(buy))} and No on ${sell.venue} at ${cents(1 - yesPrice(sell))}`;
      } else if (relation === "subset" || relation === "superset") {
        // The narrower question must not cost more than the broader one.
        const [narrow, broad] = relation === "subset" ? [a, b] : [b, a];
        spread = yesPrice(narrow) - yesPrice(broad);
        [buy, sell] = [broad, narrow];
        how = `Yes on ${narrow.venue} implies Yes on ${broad.venue}: buy Yes on ${broad.venue} at ${cents(yesPrice(broad))} and No on ${narrow.venue} at ${cents(1 - yesPrice(narrow))}`;
      } else if (relation === "disjoint") {
        spread = pa + pb - 1;
        [buy, sell] = pa <= pb ? [a, b] : [b, a];
        how = `They cannot both resolve Yes: buy No on both (${cents(1 - pa)} + ${cents(1 - pb)})`;
      }
      spread = Math.round(spread * 10000) / 10000;
      if (spread <= 0 || spread < minSpread) return [];
      return [
        {
          a,
          b,
          buyVenue: buy.venue,
          sellVenue: sell.venue,
          buyPrice: yesPrice(buy),
          sellPrice: yesPrice(sell),
          spread,
          relation,
          confidence: match.confidence,
          reasoning: `${how}; gross edge ${cents(spread)} per contract. Fees, slippage and settlement differences are not in it.`,
          verified,
        },
      ];
    })
    .sort((x, y) => y.spread - x.spread || y.confidence - x.confidence)
    .slice(0, query.limit);
  const prices = await pricesFor(bookPrices, query.includePrices, found.flatMap((o) => [o.a, o.b]));
  const data = found.map(({ a, b, ...rest }) => ({ marketA: publicMarket(a, prices), marketB: publicMarket(b, prices), ...rest }));
  return arbitrageResponse.parse({ data, meta: { count: data.length, limit: query.limit } });
}
