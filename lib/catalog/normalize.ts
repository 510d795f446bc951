import type { MarketOutcome, UnifiedEvent, UnifiedMarket } from "pmxt-core";
import type { NewEventRow } from "@/lib/db/schema/events";
import type { NewMarketRow, StoredOutcome } from "@/lib/db/schema/markets";
import { normalizeCategory } from "./categories";
import { eventUuid, marketUuid, syntheticContractAddress } from "./ids";

/** Venue statuses that are positive evidence of a closed or resolved market. */
const closedStatuses = new Set([
  "closed",
  "resolved",
  "archived",
  "settled",
  "finalized",
  "determined",
  "expired",
  "cancelled",
  "canceled",
  "inactive",
]);

export function isClosedStatus(status: string | null | undefined): boolean {
  return typeof status === "string" && closedStatuses.has(status.trim().toLowerCase());
}

const finite = (value: unknown): number | null => {
  const n = typeof value === "string" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) ? n : null;
};

const text = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value : null);

const date = (value: unknown): Date | null => {
  if (value === null || value === undefined || value === "") return null;
  const d = value instanceof Date ? value : new Date(value as string | number);
  return Number.isFinite(d.getTime()) ? d : null;
};

function outcome(o: MarketOutcome): StoredOutcome | null {
  const outcomeId = text(o.outcomeId);
  if (outcomeId === null) return null;
  return {
    outcomeId,
    label: text(o.label) ?? outcomeId,
    price: finite(o.price) ?? 0,
    priceChange24h: finite(o.priceChange24h) ?? 0,
  };
}

export interface NormalizedEvent {
  event: NewEventRow;
  markets: NewMarketRow[];
}

function normalizeMarket(venue: string, eventId: string, event: UnifiedEvent, m: UnifiedMarket, now: Date): NewMarketRow | null {
  const venueMarketId = text(m.marketId);
  if (venueMarketId === null) return null;
  const outcomes = (m.outcomes ?? []).map(outcome).filter((o): o is StoredOutcome => o !== null);
  const status = text(m.status);
  // The mock venue's markets feed synthetic ticks keyed by contract address; give it one if absent.
  const contractAddress =
    text(m.contractAddress) ?? (venue === "mock" ? syntheticContractAddress(venue, venueMarketId) : null);
  return {
    id: marketUuid(venue, venueMarketId),
    eventId,
    venue,
    venueMarketId,
    title: text(m.title) ?? venueMarketId,
    slug: text(m.slug),
    description: text(m.description),
    category: normalizeCategory(text(m.category) ?? text(event.category), [...(m.tags ?? []), ...(event.tags ?? [])]),
    outcomes,
    outcomeIds: outcomes.map((o) => o.outcomeId),
    volume24h: finite(m.volume24h) ?? 0,
    volume: finite(m.volume),
    liquidity: finite(m.liquidity),
    openInterest: finite(m.openInterest),
    status,
    closed: isClosedStatus(status),
    resolutionDate: date(m.resolutionDate),
    contractAddress,
    url: text(m.url),
    image: text(m.image),
    lastSeenAt: now,
  };
}

/**
 * pmxt-core's unified event (with its markets) -> catalog rows. Ids are UUID v5 of the venue and
 * the venue-native id; categories are normalized; bad numbers become 0/null rather than NaN.
 * Returns null for a record without a venue id (nothing stable to key it on).
 */
export function normalizeEvent(venue: string, e: UnifiedEvent, now = new Date()): NormalizedEvent | null {
  const venueEventId = text(e.id);
  if (venueEventId === null) return null;
  const id = eventUuid(venue, venueEventId);
  const seen = new Set<string>();
  const markets: NewMarketRow[] = [];
  for (const m of e.markets ?? []) {
    const row = normalizeMarket(venue, id, e, m, now);
    if (row === null || seen.has(row.venueMarketId)) continue;
    seen.add(row.venueMarketId);
    markets.push(row);
  }
  const tags = (e.tags ?? []).filter((t): t is string => typeof t === "string");
  const dates = markets.map((m) => m.resolutionDate?.getTime()).filter((t): t is number => t !== undefined);
  return {
    event: {
      id,
      venue,
      venueEventId,
      title: text(e.title) ?? venueEventId,
      slug: text(e.slug),
      description: text(e.description),
      category: normalizeCategory(text(e.category), tags),
      venueCategory: text(e.category),
      tags,
      image: text(e.image),
      url: text(e.url),
      volume24h: finite(e.volume24h) ?? markets.reduce((sum, m) => sum + (m.volume24h ?? 0), 0),
      volume: finite(e.volume),
      closed: markets.length > 0 && markets.every((m) => m.closed === true),
      resolutionDate: dates.length > 0 ? new Date(Math.max(...dates)) : null,
      lastSeenAt: now,
    },
    markets,
  };
}
