import "server-only";
import { and, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { events, markets, type EventRow, type MarketRow } from "@/lib/db/schema";
import { NotFoundError } from "@/lib/errors";
import { encodeCursor } from "./cursor";
import { UUID_PATTERN } from "./ids";
import {
  eventPublic,
  marketPublic,
  type EventPublic,
  type ListMeta,
  type ListQuery,
  type MarketPublic,
} from "./shapes";

export interface ListResult<T> {
  data: T[];
  meta: ListMeta;
}

/** `%text%` with the LIKE metacharacters of the user's text escaped (they match literally). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const marketColumns = {
  id: markets.id,
  eventId: markets.eventId,
  venue: markets.venue,
  venueMarketId: markets.venueMarketId,
  title: markets.title,
  slug: markets.slug,
  description: markets.description,
  category: markets.category,
  outcomes: markets.outcomes,
  volume24h: markets.volume24h,
  volume: markets.volume,
  liquidity: markets.liquidity,
  openInterest: markets.openInterest,
  status: markets.status,
  closed: markets.closed,
  resolutionDate: markets.resolutionDate,
  contractAddress: markets.contractAddress,
  url: markets.url,
  image: markets.image,
  lastSeenAt: markets.lastSeenAt,
};

type MarketSelection = Pick<MarketRow, keyof typeof marketColumns>;

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

/** A stored row -> the public market, parsed through `marketPublic` (STYLE.md 4). */
export function toMarketPublic(row: MarketSelection): MarketPublic {
  const outcomes = row.outcomes.map((o) => ({
    outcomeId: o.outcomeId,
    label: o.label,
    price: o.price,
    priceChange24h: o.priceChange24h,
  }));
  const binary = outcomes.length === 2;
  return marketPublic.parse({
    marketId: row.id,
    eventId: row.eventId,
    exchange: row.venue,
    venueMarketId: row.venueMarketId,
    title: row.title,
    slug: row.slug,
    description: row.description,
    category: row.category,
    outcomes,
    ...(binary ? { yes: outcomes[0], no: outcomes[1] } : {}),
    volume24h: row.volume24h,
    volume: row.volume,
    liquidity: row.liquidity,
    openInterest: row.openInterest,
    status: row.status,
    closed: row.closed,
    resolutionDate: iso(row.resolutionDate),
    contractAddress: row.contractAddress,
    url: row.url,
    image: row.image,
    updatedAt: iso(row.lastSeenAt),
  });
}

function toEventPublic(row: EventRow, nested: MarketPublic[]): EventPublic {
  return eventPublic.parse({
    eventId: row.id,
    exchange: row.venue,
    venueEventId: row.venueEventId,
    title: row.title,
    slug: row.slug,
    description: row.description,
    category: row.category,
    tags: row.tags,
    image: row.image,
    url: row.url,
    volume24h: row.volume24h,
    volume: row.volume,
    closed: row.closed,
    resolutionDate: iso(row.resolutionDate),
    updatedAt: iso(row.lastSeenAt),
    markets: nested,
  });
}

type RankedTable = typeof markets | typeof events;

/** The WHERE of both lists: filters plus the keyset position. Every value binds (STYLE.md 5). */
function listConditions(table: RankedTable, query: ListQuery): SQL | undefined {
  const conditions: SQL[] = [];
  if (!query.closed) conditions.push(eq(table.closed, false));
  if (query.category !== undefined) conditions.push(eq(table.category, query.category));
  if (query.exchange !== undefined) conditions.push(eq(table.venue, query.exchange));
  if (query.query !== undefined) {
    // search_text = title U+001F slug: one trigram index serves both columns.
    conditions.push(ilike(table.searchText, containsPattern(query.query)));
  }
  if (query.cursor !== undefined) {
    conditions.push(sql`(${table.volume24h}, ${table.id}) < (${query.cursor.volume24h}, ${query.cursor.id}::uuid)`);
  }
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** The list order: volume24h descending, ties by id (descending), matching the rank indexes. */
const rankOrder = (table: RankedTable) => [
  sql`${table.volume24h} desc nulls last`,
  sql`${table.id} desc nulls last`,
];

function meta<T extends { volume24h: number }>(rows: T[], idOf: (row: T) => string, query: ListQuery): ListMeta {
  const last = rows.at(-1);
  return {
    count: rows.length,
    limit: query.limit,
    offset: query.offset,
    nextCursor:
      rows.length === query.limit && last !== undefined ? encodeCursor({ volume24h: last.volume24h, id: idOf(last) }) : null,
  };
}

/** The one SQL statement behind GET /v0/markets (exported so the benchmark can run it directly). */
export function marketListStatement(db: Db, query: ListQuery) {
  return db
    .select(marketColumns)
    .from(markets)
    .where(listConditions(markets, query))
    .orderBy(...rankOrder(markets))
    .limit(query.limit)
    .offset(query.offset);
}

/** GET /v0/markets: one flat list across venues, by 24h volume. */
export async function searchMarkets(db: Db, query: ListQuery): Promise<ListResult<MarketPublic>> {
  const rows = await marketListStatement(db, query);
  const data = rows.map(toMarketPublic);
  return { data, meta: meta(data, (m) => m.marketId, query) };
}

/** Markets of the given events, by 24h volume; with includeClosed=false only open ones. */
async function marketsOfEvents(db: Db, eventIds: string[], includeClosed: boolean): Promise<Map<string, MarketPublic[]>> {
  const byEvent = new Map<string, MarketPublic[]>();
  if (eventIds.length === 0) return byEvent;
  const rows = await db
    .select(marketColumns)
    .from(markets)
    .where(and(inArray(markets.eventId, eventIds), includeClosed ? undefined : eq(markets.closed, false)))
    .orderBy(...rankOrder(markets));
  for (const row of rows) {
    const list = byEvent.get(row.eventId) ?? [];
    list.push(toMarketPublic(row));
    byEvent.set(row.eventId, list);
  }
  return byEvent;
}

/** GET /v0/events: events with their nested markets, same filters and order as markets. */
export async function searchEvents(db: Db, query: ListQuery): Promise<ListResult<EventPublic>> {
  const rows = await db
    .select()
    .from(events)
    .where(listConditions(events, query))
    .orderBy(...rankOrder(events))
    .limit(query.limit)
    .offset(query.offset);
  const nested = await marketsOfEvents(
    db,
    rows.map((r) => r.id),
    query.closed,
  );
  const data = rows.map((row) => toEventPublic(row, nested.get(row.id) ?? []));
  return { data, meta: meta(data, (e) => e.eventId, query) };
}

const MAX_REF_LENGTH = 512;

/**
 * How well a row matches a reference, best first: catalog id, venue id, contract address,
 * outcome id, slug. Several venues can share a slug; the most specific match wins, then volume.
 */
function refRank(parts: Array<[SQL | undefined, number]>): SQL {
  const cases = parts
    .filter((p): p is [SQL, number] => p[0] !== undefined)
    .map(([condition, rank]) => sql`when ${condition} then ${rank}`);
  return sql`case ${sql.join(cases, sql` `)} else 9 end`;
}

/** GET /v0/markets/{ref}: by catalog UUID, slug, venue market id, contractAddress or an outcomeId. */
export async function getMarketOrThrow(db: Db, ref: string): Promise<MarketPublic> {
  const value = ref.trim();
  if (value === "" || value.length > MAX_REF_LENGTH) throw new NotFoundError("market", ref.slice(0, 80));
  const byId = UUID_PATTERN.test(value) ? eq(markets.id, value.toLowerCase()) : undefined;
  const byVenueId = eq(markets.venueMarketId, value);
  const byContract = eq(markets.contractAddress, value);
  const byOutcome = sql`${markets.outcomeIds} @> array[${value}]::text[]`;
  const bySlug = eq(markets.slug, value);
  const [row] = await db
    .select(marketColumns)
    .from(markets)
    .where(or(byId, byVenueId, byContract, byOutcome, bySlug))
    .orderBy(
      refRank([
        [byId, 0],
        [byVenueId, 1],
        [byContract, 2],
        [byOutcome, 3],
        [bySlug, 4],
      ]),
      ...rankOrder(markets),
    )
    .limit(1);
  if (row === undefined) throw new NotFoundError("market", value);
  return toMarketPublic(row);
}

/** GET /v0/events/{ref}: by catalog UUID, slug or venue event id; with all its markets. */
export async function getEventOrThrow(db: Db, ref: string): Promise<EventPublic> {
  const value = ref.trim();
  if (value === "" || value.length > MAX_REF_LENGTH) throw new NotFoundError("event", ref.slice(0, 80));
  const byId = UUID_PATTERN.test(value) ? eq(events.id, value.toLowerCase()) : undefined;
  const byVenueId = eq(events.venueEventId, value);
  const bySlug = eq(events.slug, value);
  const [row] = await db
    .select()
    .from(events)
    .where(or(byId, byVenueId, bySlug))
    .orderBy(
      refRank([
        [byId, 0],
        [byVenueId, 1],
        [bySlug, 2],
      ]),
      ...rankOrder(events),
    )
    .limit(1);
  if (row === undefined) throw new NotFoundError("event", value);
  const nested = await marketsOfEvents(db, [row.id], true);
  return toEventPublic(row, nested.get(row.id) ?? []);
}
