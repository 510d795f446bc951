import "server-only";
import { and, eq, ilike, inArray, sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { resultRows, type Db } from "@/lib/db";
import { events } from "@/lib/db/schema/events";
import { markets } from "@/lib/db/schema/markets";
import { eventQuotes, marketQuotes } from "@/lib/db/schema/quotes";
import { encodeCursor, type Cursor, type ListSort } from "./cursor";
import { eventColumns, isoText, marketColumns, quoteOfEvent, quoteOfMarket, toEventPublic, toMarketPublic, type ListedMarketRow } from "./public";
import type { EventPublic, ListMeta, ListQuery, MarketPublic } from "./shapes";
import { listTotal, type ListTotal } from "./totals";

/* GET /v0/markets and GET /v0/events: filters, orders, totals and keyset paging. */

export interface ListResult<T> {
  data: T[];
  meta: ListMeta;
}

/** `%text%` with the LIKE metacharacters of the user's text escaped (they match literally). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

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
        name === "resolutionDate" || name === "firstSeenAt"
          ? sql`${isoText(sql`${column}`)} as ${sql.identifier(name)}`
          : sql`${name === "lastSeenAt" ? marketColumns.lastSeenAt.getSQL() : column} as ${sql.identifier(name)}`,
      ),
      sql`, `,
    ),
  ).sql, // rendered once: no parameters in it, and rendering 22 column objects per request cost ~0.1 ms
);

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
export const rankOrder = (table: RankedTable) => orderOf(table, sortKey(table, "volume24h"));

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
  // The page's rows come from the rank indexes of `markets`; each joins its quote by primary key.
  return sql`select ${listedColumns}, ${key.cursorValue} as "cursorKey" from ${markets} join ${marketQuotes} on ${quoteOfMarket}${where === undefined ? sql`` : sql` where ${where}`}
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
export async function marketsOfEvents(db: Db, eventIds: string[], includeClosed: boolean): Promise<Map<string, MarketPublic[]>> {
  const byEvent = new Map<string, MarketPublic[]>();
  if (eventIds.length === 0) return byEvent;
  const rows = await db
    .select(marketColumns)
    .from(markets)
    .innerJoin(marketQuotes, quoteOfMarket)
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
      .select({ event: eventColumns, id: events.id, cursorKey: sql<number | string | null>`${key.cursorValue}`.as("cursor_key") })
      .from(events)
      .innerJoin(eventQuotes, quoteOfEvent)
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

