import "server-only";
import { and, eq, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { events, markets, type NewEventRow, type NewMarketRow } from "@/lib/db/schema";
import type { NormalizedEvent } from "./normalize";

/** Markets per upsert statement (22 columns: ~22k bound parameters, under PostgreSQL's 65,535). */
export const MARKET_BATCH = 1000;

/** `coalesce(excluded.col, table.col)`: a poll that lacks a value never blanks the stored one. */
const keep = (table: string, column: string): SQL => sql.raw(`coalesce(excluded.${column}, ${table}.${column})`);
const take = (column: string): SQL => sql.raw(`excluded.${column}`);

async function upsertEventRows(tx: Db, rows: NewEventRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx
    .insert(events)
    .values(rows)
    .onConflictDoUpdate({
      target: events.id,
      set: {
        title: take("title"),
        slug: keep("events", "slug"),
        description: keep("events", "description"),
        category: take("category"),
        venueCategory: keep("events", "venue_category"),
        tags: take("tags"),
        image: keep("events", "image"),
        url: keep("events", "url"),
        volume24h: take("volume24h"),
        volume: keep("events", "volume"),
        closed: take("closed"),
        resolutionDate: keep("events", "resolution_date"),
        lastSeenAt: take("last_seen_at"),
      },
    });
}

async function upsertMarketRows(tx: Db, rows: NewMarketRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx
    .insert(markets)
    .values(rows)
    .onConflictDoUpdate({
      target: markets.id,
      set: {
        eventId: take("event_id"),
        title: take("title"),
        slug: keep("markets", "slug"),
        description: keep("markets", "description"),
        category: take("category"),
        outcomes: take("outcomes"),
        outcomeIds: take("outcome_ids"),
        volume24h: take("volume24h"),
        volume: keep("markets", "volume"),
        liquidity: keep("markets", "liquidity"),
        openInterest: keep("markets", "open_interest"),
        status: keep("markets", "status"),
        closed: take("closed"),
        resolutionDate: keep("markets", "resolution_date"),
        contractAddress: keep("markets", "contract_address"),
        url: keep("markets", "url"),
        image: keep("markets", "image"),
        lastSeenAt: take("last_seen_at"),
      },
    });
}

/**
 * Upserts normalized events with their markets in batches of about MARKET_BATCH markets, one
 * transaction per batch (events first: markets reference them). Returns markets written.
 * Duplicate ids inside one poll (a venue listing a record twice) keep the first occurrence.
 */
export async function upsertCatalog(
  db: Db,
  normalized: readonly NormalizedEvent[],
  onBatch?: (marketsDone: number) => void,
): Promise<number> {
  const seenEvents = new Set<string>();
  const seenMarkets = new Set<string>();
  let eventBatch: NewEventRow[] = [];
  let marketBatch: NewMarketRow[] = [];
  let written = 0;
  const flush = async () => {
    if (eventBatch.length === 0 && marketBatch.length === 0) return;
    const [e, m] = [eventBatch, marketBatch];
    eventBatch = [];
    marketBatch = [];
    await db.transaction(async (tx) => {
      await upsertEventRows(tx as unknown as Db, e);
      await upsertMarketRows(tx as unknown as Db, m);
    });
    written += m.length;
    onBatch?.(written);
  };
  for (const item of normalized) {
    const eventId = item.event.id;
    if (eventId === undefined || seenEvents.has(eventId)) continue;
    seenEvents.add(eventId);
    eventBatch.push(item.event);
    for (const market of item.markets) {
      if (market.id === undefined || seenMarkets.has(market.id)) continue;
      seenMarkets.add(market.id);
      marketBatch.push(market);
    }
    if (marketBatch.length >= MARKET_BATCH || eventBatch.length >= MARKET_BATCH) await flush();
  }
  await flush();
  return written;
}

/** Open markets of `venue` that the poll started at `since` did not see (candidates for a direct lookup). */
export async function unseenOpenMarkets(db: Db, venue: string, since: Date, limit: number) {
  return db
    .select({ id: markets.id, eventId: markets.eventId, venueMarketId: markets.venueMarketId })
    .from(markets)
    .where(and(eq(markets.venue, venue), eq(markets.closed, false), lt(markets.lastSeenAt, since)))
    .orderBy(sql`${markets.volume24h} desc nulls last`)
    .limit(limit);
}

/** Marks markets closed (after a direct lookup confirmed it) and closes events left with no open market. */
export async function markMarketsClosed(db: Db, closed: ReadonlyArray<{ id: string; eventId: string; status: string | null }>) {
  if (closed.length === 0) return;
  await db.transaction(async (tx) => {
    for (const m of closed) {
      await tx
        .update(markets)
        .set({ closed: true, status: sql`coalesce(${m.status}, ${markets.status})` })
        .where(eq(markets.id, m.id));
    }
    const eventIds = [...new Set(closed.map((m) => m.eventId))];
    await tx
      .update(events)
      .set({ closed: true })
      .where(
        and(
          inArray(events.id, eventIds),
          sql`not exists (select 1 from ${markets} where ${markets.eventId} = ${events.id} and ${markets.closed} = false)`,
        ),
      );
  });
}
