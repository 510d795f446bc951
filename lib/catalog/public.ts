import "server-only";
import type { EventRow, MarketRow } from "@/lib/db/schema";
import { markets } from "@/lib/db/schema";
import { isoOrNull } from "@/lib/format";
import { isCategory, type Category } from "./categories";
import { priceStepsOf, roundPrice } from "./prices";
import type { EventPublic, MarketPublic } from "./shapes";

/*
 * Stored catalog rows -> the public shapes of /v0/markets and /v0/events, for the listing
 * (lib/catalog/list.ts), id resolution (lib/catalog/resolve.ts) and every domain that answers
 * with a market.
 */

/** The market columns every reader of the catalog selects (the public shape is built from them). */
export const marketColumns = {
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

export type MarketSelection = Pick<MarketRow, keyof typeof marketColumns>;

/** A market row as the listing reads it: the same fields, its times already as ISO text. */
export type ListedMarketRow = Omit<MarketSelection, "resolutionDate" | "firstSeenAt" | "lastSeenAt"> & {
  resolutionDate: string | null;
  firstSeenAt: string;
  lastSeenAt: string;
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
    updatedAt: typeof row.lastSeenAt === "string" ? row.lastSeenAt : row.lastSeenAt.toISOString(),
  };
  if (outcomes.length === 2) {
    market.yes = outcomes[0];
    market.no = outcomes[1];
  }
  return market;
}

/** A stored event and its (already public) markets -> the public event. */
export function toEventPublic(row: EventRow, nested: MarketPublic[]): EventPublic {
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

