import "server-only";
import { eq, sql, type SQL } from "drizzle-orm";
import type { StoredOutcome } from "@/lib/db/schema/markets";
import { events } from "@/lib/db/schema/events";
import { markets } from "@/lib/db/schema/markets";
import { eventQuotes, marketQuotes } from "@/lib/db/schema/quotes";
import { isoOrNull } from "@/lib/format";
import { resolutionColumn, resolutionVersion, toResolutionPublic, type StoredResolution } from "@/lib/outcomes/public";
import { isCategory, type Category } from "./categories";
import { priceStepsOf, roundPrice } from "./prices";
import type { EventPublic, MarketPublic } from "./shapes";

/*
 * Stored catalog rows -> the public shapes of /v0/markets and /v0/events, for the listing
 * (lib/catalog/list.ts), id resolution (lib/catalog/resolve.ts) and every domain that answers
 * with a market.
 */

/**
 * The market columns every reader of the catalog selects (the public shape is built from them),
 * from a `markets` row and its `market_quotes` row (or aliases of both): what describes the market
 * from the first, its prices and volumes from the second, so an answer always shows the last
 * poll's quote, never the rank keys `markets` keeps for the list orders. `lastSeenAt` (the
 * answer's `updatedAt`) is the later of the two rows' writes, as ISO text.
 */
export function marketColumnsOf(m: typeof markets, q: typeof marketQuotes) {
  return {
    id: m.id,
    eventId: m.eventId,
    venue: m.venue,
    venueMarketId: m.venueMarketId,
    title: m.title,
    slug: m.slug,
    description: m.description,
    category: m.category,
    outcomes: q.outcomes,
    volume24h: q.volume24h,
    volume: q.volume,
    liquidity: q.liquidity,
    openInterest: q.openInterest,
    status: m.status,
    closed: m.closed,
    resolutionDate: m.resolutionDate,
    contractAddress: m.contractAddress,
    url: m.url,
    image: m.image,
    firstSeenAt: m.firstSeenAt,
    lastSeenAt: isoText(sql`greatest(${m.lastSeenAt}, ${q.quotedAt})`).as("last_seen_at"),
    /** The current outcome (lib/outcomes), by primary key; null when Brier has none. */
    resolution: resolutionColumn(m.venue, m.venueMarketId),
  };
}

/** A timestamptz as `Date.prototype.toISOString()` writes it (UTC, milliseconds), computed by the database. */
export const isoText = (column: SQL) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export const marketColumns = marketColumnsOf(markets, marketQuotes);

/**
 * The version of everything `marketColumns` reads for a market, as text: the `xmin` of its
 * `markets` and `market_quotes` rows and of its outcome's row (`resolutionVersion`). Every write
 * of a row, even one that sets the same values, makes a new row version with the writing
 * transaction's id, so while this text stays the same the market's public JSON does too (the
 * listing keeps that JSON by it: lib/catalog/list.ts, `marketListingJson`). Needs the
 * `quoteOfMarket` join.
 */
export const marketVersion = sql<string>`${markets}.xmin::text || ' ' || ${marketQuotes}.xmin::text || ' ' || coalesce(${resolutionVersion(markets.venue, markets.venueMarketId)}, '-')`;

/** The join every reader of `marketColumns` adds: a market's quote row (one per market, always). */
export const quoteOfMarket = eq(marketQuotes.id, markets.id);

/** A market as every reader selects it (`marketColumnsOf`). */
export interface MarketSelection {
  id: string;
  eventId: string;
  venue: string;
  venueMarketId: string;
  title: string;
  slug: string | null;
  description: string | null;
  category: string;
  outcomes: StoredOutcome[];
  volume24h: number;
  volume: number | null;
  liquidity: number | null;
  openInterest: number | null;
  status: string | null;
  closed: boolean;
  resolutionDate: Date | null;
  contractAddress: string | null;
  url: string | null;
  image: string | null;
  firstSeenAt: Date;
  lastSeenAt: string;
  resolution?: StoredResolution | null;
}

/** A market row as the listing reads it: the same fields, its times already as ISO text. */
export type ListedMarketRow = Omit<MarketSelection, "resolutionDate" | "firstSeenAt"> & {
  resolutionDate: string | null;
  firstSeenAt: string;
};

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
    updatedAt: row.lastSeenAt,
    resolution: toResolutionPublic(row.resolution, row),
  };
  if (outcomes.length === 2) {
    market.yes = outcomes[0];
    market.no = outcomes[1];
  }
  return market;
}

/**
 * The event columns its answers read: what describes it from `events`, its volumes from
 * `event_quotes` (join `quoteOfEvent`), `lastSeenAt` the later of the two rows' writes as ISO text.
 */
export const eventColumns = {
  id: events.id,
  venue: events.venue,
  venueEventId: events.venueEventId,
  title: events.title,
  slug: events.slug,
  description: events.description,
  category: events.category,
  tags: events.tags,
  image: events.image,
  url: events.url,
  volume24h: eventQuotes.volume24h,
  volume: eventQuotes.volume,
  closed: events.closed,
  resolutionDate: events.resolutionDate,
  firstSeenAt: events.firstSeenAt,
  lastSeenAt: isoText(sql`greatest(${events.lastSeenAt}, ${eventQuotes.quotedAt})`).as("last_seen_at"),
};

export const quoteOfEvent = eq(eventQuotes.id, events.id);

/** An event as its answers select it (`eventColumns`). */
export interface EventSelection {
  id: string;
  venue: string;
  venueEventId: string;
  title: string;
  slug: string | null;
  description: string | null;
  category: string;
  tags: string[];
  image: string | null;
  url: string | null;
  volume24h: number;
  volume: number | null;
  closed: boolean;
  resolutionDate: Date | null;
  firstSeenAt: Date;
  lastSeenAt: string;
}

/** A stored event and its (already public) markets -> the public event. */
export function toEventPublic(row: EventSelection, nested: MarketPublic[]): EventPublic {
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
    updatedAt: row.lastSeenAt,
    markets: nested,
  };
}

