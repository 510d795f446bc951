import "server-only";
import { catalogVenues } from "@/lib/catalog/venues";
import { searchEvents, searchMarkets } from "@/lib/catalog/list";
import { getEventOrThrow, getMarketOrThrow, venueEventIdsOf } from "@/lib/catalog/resolve";
import { MAX_LIMIT, type EventPublic, type ListQuery, type MarketPublic } from "@/lib/catalog/shapes";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";

/**
 * Catalog-served reads: fetchMarkets / fetchEvents / fetchMarket / fetchEvent without
 * credentials, on a venue Brier ingests, with parameters the catalog can answer, come from
 * Postgres in pmxt's unified shape (ids are the venue's own, as pmxt returns them). Anything
 * else, an empty answer, or a catalog error returns undefined and the call goes live.
 */

const catalogMethods = new Set(["fetchMarkets", "fetchEvents", "fetchMarket", "fetchEvent"]);
/** A venue with no rows is skipped for this long (not ingested yet, or not a catalog venue here). */
const emptyVenueTtlMs = 30_000;
const emptyUntil = new Map<string, number>();

type Params = Record<string, unknown>;

function listQuery(venue: string, params: Params): ListQuery | undefined {
  const keys = Object.keys(params);
  if (!keys.every((k) => ["limit", "offset", "query", "status"].includes(k))) return undefined;
  const { limit, offset, query, status } = params;
  // Without a limit pmxt returns every market of the venue; the catalog pages at most MAX_LIMIT.
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) return undefined;
  if (offset !== undefined && (typeof offset !== "number" || !Number.isInteger(offset) || offset < 0)) return undefined;
  if (query !== undefined && typeof query !== "string") return undefined;
  if (status !== undefined && status !== "active") return undefined;
  return { query, limit, offset: offset ?? 0, closed: false, category: undefined, exchange: venue, cursor: undefined };
}

function singleRef(params: Params, names: string[]): string | undefined {
  const keys = Object.keys(params);
  const name = keys[0];
  if (keys.length !== 1 || name === undefined || !names.includes(name)) return undefined;
  const value = params[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

function unifiedMarket(m: MarketPublic, venueEventId: string | undefined): Record<string, unknown> {
  const outcome = (o: MarketPublic["outcomes"][number]) => ({ ...o, marketId: m.venueMarketId });
  return {
    marketId: m.venueMarketId,
    eventId: venueEventId,
    title: m.title,
    description: m.description ?? "",
    slug: m.slug ?? undefined,
    outcomes: m.outcomes.map(outcome),
    resolutionDate: m.resolutionDate ?? undefined,
    volume24h: m.volume24h,
    volume: m.volume ?? undefined,
    liquidity: m.liquidity ?? 0,
    openInterest: m.openInterest ?? undefined,
    url: m.url ?? "",
    image: m.image ?? undefined,
    category: m.category,
    status: m.status ?? undefined,
    contractAddress: m.contractAddress ?? undefined,
    sourceExchange: m.exchange,
    ...(m.yes !== undefined ? { yes: outcome(m.yes) } : {}),
    ...(m.no !== undefined ? { no: outcome(m.no) } : {}),
  };
}

function unifiedEvent(e: EventPublic): Record<string, unknown> {
  return {
    id: e.venueEventId,
    title: e.title,
    description: e.description ?? "",
    slug: e.slug ?? "",
    markets: e.markets.map((m) => unifiedMarket(m, e.venueEventId)),
    volume24h: e.volume24h,
    volume: e.volume ?? undefined,
    url: e.url ?? "",
    image: e.image ?? undefined,
    category: e.category,
    tags: e.tags,
    sourceExchange: e.exchange,
  };
}

async function venueEventIds(catalogEventIds: string[]): Promise<Map<string, string>> {
  return venueEventIdsOf(await getDb(), catalogEventIds);
}

async function answer(venue: string, method: string, params: Params): Promise<unknown> {
  const db = await getDb();
  if (method === "fetchMarkets" || method === "fetchEvents") {
    const query = listQuery(venue, params);
    if (query === undefined) return undefined;
    if (method === "fetchEvents") {
      const { data } = await searchEvents(db, query);
      return data.length === 0 ? undefined : data.map(unifiedEvent);
    }
    const { data } = await searchMarkets(db, query);
    if (data.length === 0) return undefined;
    const eventIds = await venueEventIds(data.map((m) => m.eventId));
    return data.map((m) => unifiedMarket(m, eventIds.get(m.eventId)));
  }
  if (method === "fetchMarket") {
    const ref = singleRef(params, ["marketId", "slug", "outcomeId"]);
    if (ref === undefined) return undefined;
    const market = await getMarketOrThrow(db, ref);
    if (market.exchange !== venue) return undefined;
    const eventIds = await venueEventIds([market.eventId]);
    return unifiedMarket(market, eventIds.get(market.eventId));
  }
  const ref = singleRef(params, ["eventId", "slug"]);
  if (ref === undefined) return undefined;
  const event = await getEventOrThrow(db, ref);
  return event.exchange === venue ? unifiedEvent(event) : undefined;
}

/** The catalog's answer to a credential-less read, or undefined to go live. Never throws. */
export async function readFromCatalog(venue: string, method: string, args: unknown[]): Promise<unknown> {
  if (!catalogMethods.has(method) || args.length > 1) return undefined;
  const params = (args[0] ?? {}) as Params;
  if (typeof params !== "object" || params === null || !catalogVenues().includes(venue)) return undefined;
  if ((emptyUntil.get(venue) ?? 0) > Date.now()) return undefined;
  try {
    const data = await answer(venue, method, params);
    const wholeFirstPage = params.query === undefined && (params.offset ?? 0) === 0;
    if (data === undefined && (method === "fetchMarkets" || method === "fetchEvents") && wholeFirstPage) {
      emptyUntil.set(venue, Date.now() + emptyVenueTtlMs);
    }
    return data;
  } catch (error) {
    if (!(error instanceof AppError && error.code === "not_found")) {
      log.warn("catalog read failed; answering live", { venue, method, ...errorFields(error) });
    }
    return undefined;
  }
}
