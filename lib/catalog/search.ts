import "server-only";
import { and, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { resultRows, type Db } from "@/lib/db";
import { events, markets, type EventRow, type MarketRow } from "@/lib/db/schema";
import { AppError, NotFoundError } from "@/lib/errors";
import { isoOrNull } from "@/lib/format";
import { listTotal, type ListTotal } from "./totals";
import { encodeCursor, type Cursor, type ListSort } from "./cursor";
import { parseVenueUrl, UUID_PATTERN, type VenueUrlRef } from "./ids";
import { priceStepsOf, roundPrice } from "./prices";
import { isCategory, type Category } from "./categories";
import {
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
  firstSeenAt: markets.firstSeenAt,
  lastSeenAt: markets.lastSeenAt,
};

type MarketSelection = Pick<MarketRow, keyof typeof marketColumns>;

/** A market row as the listing reads it: the same fields, its times already as ISO text. */
type ListedMarketRow = Omit<MarketSelection, "resolutionDate" | "firstSeenAt" | "lastSeenAt"> & {
  resolutionDate: string | null;
  firstSeenAt: string;
  lastSeenAt: string;
};

/** A timestamptz as `Date.prototype.toISOString()` writes it (UTC, milliseconds), computed by the database. */
const isoText = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The listing's select list: `marketColumns` under their property names, times as ISO text. The
 * listing reads the driver's rows as they are (lib/db `resultRows`), because drizzle's per-field
 * row mapping and the Date objects of three timestamps cost about 0.7 ms of CPU per page of 51
 * rows, twice the statement itself (docs/performance.md).
 */
const listedColumns = sql.raw(
  new PgDialect().sqlToQuery(
    sql.join(
      Object.entries(marketColumns).map(([name, column]) =>
        name === "resolutionDate" || name === "firstSeenAt" || name === "lastSeenAt"
          ? sql`${isoText(sql`${column}`)} as ${sql.identifier(name)}`
          : sql`${column} as ${sql.identifier(name)}`,
      ),
      sql`, `,
    ),
  ).sql, // rendered once: no parameters in it, and rendering 22 column objects per request cost ~0.1 ms
);

/** Categories are normalized on write; a row outside the set is a bug, answered as a 500 like any other. */
function publicCategory(value: string): Category {
  if (isCategory(value)) return value;
  throw new Error(`catalog row with a category outside the fixed set: ${value}`);
}


/**
 * A stored row -> the public market, field by field (docs/architecture.md: nothing leaves that the public
 * shape does not name; the type checks every field against `MarketPublic`), prices on the venue's
 * grid. Rows are validated on the way in (lib/catalog/normalize.ts, the schema's types and
 * constraints), so they are not zod-parsed again on every read: that cost as much as serialising
 * the page (docs/performance.md). Route tests parse every response through `marketListResponse`.
 */
export function toMarketPublic(row: MarketSelection | ListedMarketRow): MarketPublic {
  const steps = priceStepsOf(row.venue);
  const outcomes = row.outcomes.map((o) => ({
    outcomeId: o.outcomeId,
    label: o.label,
    price: roundPrice(o.price, steps),
    priceChange24h: roundPrice(o.priceChange24h, steps),
  }));
  const market: MarketPublic = {
    marketId: row.id,
    eventId: row.eventId,
    exchange: row.venue,
    venueMarketId: row.venueMarketId,
    title: row.title,
    slug: row.slug,
    description: row.description,
    category: publicCategory(row.category),
    outcomes,
    volume24h: row.volume24h,
    volume: row.volume,
    liquidity: row.liquidity,
    openInterest: row.openInterest,
    status: row.status,
    closed: row.closed,
    resolutionDate: typeof row.resolutionDate === "string" ? row.resolutionDate : isoOrNull(row.resolutionDate),
    contractAddress: row.contractAddress,
    url: row.url,
    image: row.image,
    firstSeenAt: typeof row.firstSeenAt === "string" ? row.firstSeenAt : row.firstSeenAt.toISOString(),
    updatedAt: typeof row.lastSeenAt === "string" ? row.lastSeenAt : row.lastSeenAt.toISOString(),
  };
  if (outcomes.length === 2) {
    market.yes = outcomes[0];
    market.no = outcomes[1];
  }
  return market;
}

function toEventPublic(row: EventRow, nested: MarketPublic[]): EventPublic {
  return {
    eventId: row.id,
    exchange: row.venue,
    venueEventId: row.venueEventId,
    title: row.title,
    slug: row.slug,
    description: row.description,
    category: publicCategory(row.category),
    tags: row.tags,
    image: row.image,
    url: row.url,
    volume24h: row.volume24h,
    volume: row.volume,
    closed: row.closed,
    resolutionDate: isoOrNull(row.resolutionDate),
    firstSeenAt: row.firstSeenAt.toISOString(),
    updatedAt: row.lastSeenAt.toISOString(),
    markets: nested,
  };
}

type RankedTable = typeof markets | typeof events;

/**
 * One list order: the sort key as SQL (expression for expression the key of its index in
 * lib/db/schema, so the planner walks that index), its direction, the SQL that reads the key back
 * for a cursor at full precision, and how a cursor key binds.
 */
interface SortKey {
  expression: SQL;
  direction: "asc" | "desc";
  cursorValue: SQL;
  bind: (key: Cursor["key"]) => SQL;
}

const utcMicros = (column: SQL | RankedTable["firstSeenAt"]) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

function sortKey(table: RankedTable, sort: ListSort): SortKey {
  const float = (key: Cursor["key"]) => sql`${key}::float8`;
  switch (sort) {
    case "volume24h":
      return { expression: sql`${table.volume24h}`, direction: "desc", cursorValue: sql`${table.volume24h}`, bind: float };
    case "change24h":
      return { expression: sql`${table.absChange24h}`, direction: "desc", cursorValue: sql`${table.absChange24h}`, bind: float };
    case "liquidity":
      // Unknown liquidity sorts after every known value; its cursor key is null.
      return {
        expression: sql`coalesce(${table.liquidity}, '-Infinity'::float8)`,
        direction: "desc",
        cursorValue: sql`${table.liquidity}`,
        bind: (key) => (key === null ? sql`'-Infinity'::float8` : float(key)),
      };
    case "resolutionDate":
      // Soonest first, unknown dates last.
      return {
        expression: sql`coalesce(${table.resolutionDate}, 'infinity'::timestamptz)`,
        direction: "asc",
        cursorValue: utcMicros(sql`${table.resolutionDate}`),
        bind: (key) => (key === null ? sql`'infinity'::timestamptz` : sql`${key}::timestamptz`),
      };
    case "newest":
      return {
        expression: sql`${table.firstSeenAt}`,
        direction: "desc",
        cursorValue: utcMicros(table.firstSeenAt),
        bind: (key) => sql`${key}::timestamptz`,
      };
  }
}

/** The filters of both lists (no keyset position). The closed filter is a literal so partial indexes apply. */
function filterConditions(table: RankedTable, query: ListQuery): SQL[] {
  const conditions: SQL[] = [];
  if (!query.closed) conditions.push(sql`${table.closed} = false`);
  if (query.category !== undefined) conditions.push(eq(table.category, query.category));
  if (query.exchange !== undefined) conditions.push(eq(table.venue, query.exchange));
  if (query.query !== undefined) {
    // search_text = title U+001F slug: one trigram index serves both columns.
    conditions.push(ilike(table.searchText, containsPattern(query.query)));
  }
  return conditions;
}

/** meta.total / meta.totalEstimate of a list's filters (lib/catalog/totals.ts has the rule). */
function countMatches(db: Db, table: RankedTable, query: ListQuery): Promise<ListTotal> {
  const conditions = filterConditions(table, query);
  const name = table === markets ? "markets" : "events";
  const cacheKey = JSON.stringify([name, query.closed, query.category ?? null, query.exchange ?? null, query.query ?? null]);
  return listTotal(db, sql`${table}`, conditions.length > 0 ? and(...conditions) : undefined, cacheKey);
}

/** The WHERE of a list page: filters plus the keyset position. Every value binds (parameters bind, never concatenate). */
function listConditions(table: RankedTable, query: ListQuery, key: SortKey): SQL | undefined {
  const conditions = filterConditions(table, query);
  if (query.cursor !== undefined) {
    const after = key.direction === "desc" ? sql`<` : sql`>`;
    conditions.push(sql`(${key.expression}, ${table.id}) ${after} (${key.bind(query.cursor.key)}, ${query.cursor.id}::uuid)`);
  }
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** ORDER BY of a list: the sort key, ties by id in the same direction (one row comparison walks the index). */
const orderOf = (table: RankedTable, key: SortKey) =>
  key.direction === "desc"
    ? [sql`${key.expression} desc nulls last`, sql`${table.id} desc nulls last`]
    : [sql`${key.expression} asc`, sql`${table.id} asc`];

/** The default order (volume24h desc, id desc), used by nested markets and lookups. */
const rankOrder = (table: RankedTable) => orderOf(table, sortKey(table, "volume24h"));

const sortOf = (query: ListQuery): ListSort => query.sort ?? "volume24h";

/**
 * Pages fetch one row more than `limit`: its presence says whether a next page exists, so
 * `nextCursor` is null exactly on the last page (never an empty page after a full one).
 */
function page<R extends { id: string; cursorKey: number | string | null }>(
  rows: R[],
  query: ListQuery,
): { rows: R[]; nextCursor: string | null } {
  if (rows.length <= query.limit) return { rows, nextCursor: null };
  const shown = rows.slice(0, query.limit);
  const last = shown.at(-1);
  if (last === undefined) return { rows: shown, nextCursor: null };
  const key = last.cursorKey === null ? null : typeof last.cursorKey === "string" ? last.cursorKey : Number(last.cursorKey);
  return { rows: shown, nextCursor: encodeCursor({ sort: sortOf(query), key, id: last.id }) };
}

/** The one SQL statement behind GET /v0/markets (exported so the benchmark can run it directly). */
export function marketListStatement(query: ListQuery): SQL {
  const key = sortKey(markets, sortOf(query));
  const where = listConditions(markets, query, key);
  return sql`select ${listedColumns}, ${key.cursorValue} as "cursorKey" from ${markets}${where === undefined ? sql`` : sql` where ${where}`}
    order by ${sql.join(orderOf(markets, key), sql`, `)} limit ${query.limit + 1} offset ${query.offset}`;
}

/** GET /v0/markets: one flat list across venues, by 24h volume unless `sort` says otherwise. */
export async function searchMarkets(db: Db, query: ListQuery): Promise<ListResult<MarketPublic>> {
  const [result, total] = await Promise.all([db.execute(marketListStatement(query)), countMatches(db, markets, query)]);
  const rows = resultRows<ListedMarketRow & { cursorKey: number | string | null }>(result);
  const { rows: shown, nextCursor } = page(rows, query);
  const data = shown.map(toMarketPublic);
  return { data, meta: { count: data.length, limit: query.limit, offset: query.offset, nextCursor, ...total } };
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

/** GET /v0/events: events with their nested markets, same filters, orders and paging as markets. */
export async function searchEvents(db: Db, query: ListQuery): Promise<ListResult<EventPublic>> {
  const key = sortKey(events, sortOf(query));
  const [rows, total] = await Promise.all([
    db
      .select({ event: events, id: events.id, cursorKey: sql<number | string | null>`${key.cursorValue}`.as("cursor_key") })
      .from(events)
      .where(listConditions(events, query, key))
      .orderBy(...orderOf(events, key))
      .limit(query.limit + 1)
      .offset(query.offset),
    countMatches(db, events, query),
  ]);
  const { rows: shown, nextCursor } = page(rows, query);
  const nested = await marketsOfEvents(
    db,
    shown.map((r) => r.id),
    query.closed,
  );
  const data = shown.map((r) => toEventPublic(r.event, nested.get(r.id) ?? []));
  return { data, meta: { count: data.length, limit: query.limit, offset: query.offset, nextCursor, ...total } };
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

/** The catalog ids of one venue's markets matching `condition`, most traded first. */
async function marketIdsWhere(db: Db, venue: string, condition: SQL): Promise<Array<{ id: string; eventId: string; slug: string | null }>> {
  return db
    .select({ id: markets.id, eventId: markets.eventId, slug: markets.slug })
    .from(markets)
    .where(and(eq(markets.venue, venue), condition))
    .orderBy(...rankOrder(markets))
    .limit(50);
}

async function eventIdWhere(db: Db, venue: string, condition: SQL): Promise<string | undefined> {
  const [row] = await db.select({ id: events.id }).from(events).where(and(eq(events.venue, venue), condition)).limit(1);
  return row?.id;
}

/** The one market an event URL names: its only market, or the market that shares the event's slug. */
async function onlyMarketOf(db: Db, venue: string, eventId: string | undefined, slug: string, url: string): Promise<string> {
  if (eventId === undefined) throw new NotFoundError("market", url);
  const rows = await marketIdsWhere(db, venue, eq(markets.eventId, eventId));
  const chosen = rows.length === 1 ? rows[0] : rows.find((r) => r.slug === slug);
  if (chosen === undefined) {
    throw new AppError("not_found", `'${url}' is an event with ${rows.length} markets; use one market's URL or id (GET /v0/events/{id} lists them).`, { resource: "market" });
  }
  return chosen.id;
}

/** The catalog market a venue page URL names. */
async function marketIdFromUrl(db: Db, ref: VenueUrlRef, url: string): Promise<string> {
  if (ref.venue === "polymarket") {
    if (ref.marketSlug !== undefined) {
      const [row] = await marketIdsWhere(db, ref.venue, eq(markets.slug, ref.marketSlug));
      if (row !== undefined) return row.id;
    }
    if (ref.eventSlug === undefined) throw new NotFoundError("market", url);
    return onlyMarketOf(db, ref.venue, await eventIdWhere(db, ref.venue, eq(events.slug, ref.eventSlug)), ref.eventSlug, url);
  }
  const ticker = ref.ticker ?? ref.series;
  const [row] = await marketIdsWhere(db, ref.venue, eq(markets.venueMarketId, ticker));
  if (row !== undefined) return row.id;
  return onlyMarketOf(db, ref.venue, await eventIdWhere(db, ref.venue, eq(events.venueEventId, ticker)), ticker, url);
}

/** The catalog event a venue page URL names (a market URL names its market's event). */
async function eventIdFromUrl(db: Db, ref: VenueUrlRef, url: string): Promise<string> {
  let id: string | undefined;
  if (ref.venue === "polymarket") {
    if (ref.eventSlug !== undefined) id = await eventIdWhere(db, ref.venue, eq(events.slug, ref.eventSlug));
    if (id === undefined && ref.marketSlug !== undefined) id = (await marketIdsWhere(db, ref.venue, eq(markets.slug, ref.marketSlug)))[0]?.eventId;
  } else {
    const ticker = ref.ticker ?? ref.series;
    id = (await eventIdWhere(db, ref.venue, eq(events.venueEventId, ticker))) ?? (await marketIdsWhere(db, ref.venue, eq(markets.venueMarketId, ticker)))[0]?.eventId;
  }
  if (id === undefined) throw new NotFoundError("event", url);
  return id;
}

/** GET /v0/markets/{ref}: by catalog UUID, slug, venue market id, contractAddress, an outcomeId or the market's page URL on its venue. */
export async function getMarketOrThrow(db: Db, ref: string): Promise<MarketPublic> {
  let value = ref.trim();
  if (value === "" || value.length > MAX_REF_LENGTH) throw new NotFoundError("market", ref.slice(0, 80));
  const url = parseVenueUrl(value);
  if (url !== undefined) value = await marketIdFromUrl(db, url, value);
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

/** GET /v0/events/{ref}: by catalog UUID, slug, venue event id or a page URL on its venue; with all its markets. */
export async function getEventOrThrow(db: Db, ref: string): Promise<EventPublic> {
  let value = ref.trim();
  if (value === "" || value.length > MAX_REF_LENGTH) throw new NotFoundError("event", ref.slice(0, 80));
  const url = parseVenueUrl(value);
  if (url !== undefined) value = await eventIdFromUrl(db, url, value);
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
