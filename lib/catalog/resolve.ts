import "server-only";
import { and, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { events } from "@/lib/db/schema/events";
import { marketRanks } from "@/lib/db/schema/market-ranks";
import { markets } from "@/lib/db/schema/markets";
import { eventQuotes, marketQuotes } from "@/lib/db/schema/quotes";
import { AppError, NotFoundError } from "@/lib/errors";
import { parseVenueUrl, UUID_PATTERN, type VenueUrlRef } from "./ids";
import { marketsOfEvents, rankOrder } from "./list";
import { eventColumns, marketColumns, quoteOfEvent, quoteOfMarket, toEventPublic, toMarketPublic } from "./public";
import type { EventPublic, MarketPublic } from "./shapes";

/*
 * A market or event by any reference a client holds: catalog UUID, venue-native id, slug,
 * contract address, outcome id, or the venue's page URL.
 */

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
    .innerJoin(marketRanks, eq(marketRanks.id, markets.id))
    .where(and(eq(markets.venue, venue), condition))
    .orderBy(...rankOrder(marketRanks))
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
    .innerJoin(marketQuotes, quoteOfMarket)
    .innerJoin(marketRanks, eq(marketRanks.id, markets.id))
    .where(or(byId, byVenueId, byContract, byOutcome, bySlug))
    .orderBy(
      refRank([
        [byId, 0],
        [byVenueId, 1],
        [byContract, 2],
        [byOutcome, 3],
        [bySlug, 4],
      ]),
      ...rankOrder(marketRanks),
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
    .select(eventColumns)
    .from(events)
    .innerJoin(eventQuotes, quoteOfEvent)
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

/** Catalog event id -> the venue's own event id, for the events given (unknown ids are left out). */
export async function venueEventIdsOf(db: Db, catalogEventIds: readonly string[]): Promise<Map<string, string>> {
  if (catalogEventIds.length === 0) return new Map();
  const rows = await db
    .select({ id: events.id, venueEventId: events.venueEventId })
    .from(events)
    .where(inArray(events.id, [...new Set(catalogEventIds)]));
  return new Map(rows.map((r) => [r.id, r.venueEventId]));
}
