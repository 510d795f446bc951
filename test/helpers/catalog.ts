import { eventUuid, marketUuid } from "@/lib/catalog/ids";
import type { NormalizedEvent } from "@/lib/catalog/normalize";
import { upsertCatalog } from "@/lib/catalog/store";
import { getDb } from "@/lib/db";
import { events, marketMatches, markets, matchFeatures, type NewMarketRow } from "@/lib/db/schema";

let sequence = 0;

/** A catalog event with its markets, as ingestion would store it (factory for route tests). */
export function makeEvent(
  overrides: { venue?: string; venueEventId?: string; title?: string; slug?: string; category?: string } = {},
  marketOverrides: Array<Partial<NewMarketRow>> = [{}],
): NormalizedEvent {
  sequence += 1;
  const venue = overrides.venue ?? "polymarket";
  const venueEventId = overrides.venueEventId ?? `ev-${sequence}`;
  const eventId = eventUuid(venue, venueEventId);
  const category = overrides.category ?? "Politics";
  const rows = marketOverrides.map((m, i): NewMarketRow => {
    sequence += 1;
    const venueMarketId = m.venueMarketId ?? `mk-${sequence}`;
    const outcomes = m.outcomes ?? [
      { outcomeId: `${venueMarketId}-yes`, label: "Yes", price: 0.6, priceChange24h: 0.01 },
      { outcomeId: `${venueMarketId}-no`, label: "No", price: 0.4, priceChange24h: -0.01 },
    ];
    return {
      id: marketUuid(venue, venueMarketId),
      eventId,
      venue,
      venueMarketId,
      title: `Market ${sequence}`,
      slug: `market-${sequence}`,
      description: null,
      category,
      volume24h: 1000 - i,
      volume: 5000,
      liquidity: 100,
      openInterest: 50,
      status: "active",
      closed: false,
      resolutionDate: new Date("2027-01-01T00:00:00Z"),
      contractAddress: `0x${sequence.toString(16).padStart(64, "0")}`,
      url: null,
      image: null,
      lastSeenAt: new Date(),
      ...m,
      outcomes,
      outcomeIds: outcomes.map((o) => o.outcomeId),
    };
  });
  return {
    event: {
      id: eventId,
      venue,
      venueEventId,
      title: overrides.title ?? `Event ${sequence}`,
      slug: overrides.slug ?? `event-${sequence}`,
      description: null,
      category,
      venueCategory: category,
      tags: [],
      image: null,
      url: null,
      volume24h: rows.reduce((s, r) => s + (r.volume24h ?? 0), 0),
      volume: null,
      closed: rows.length > 0 && rows.every((r) => r.closed === true),
      resolutionDate: null,
      lastSeenAt: new Date(),
    },
    markets: rows,
  };
}

export async function seedCatalog(items: NormalizedEvent[]): Promise<void> {
  await upsertCatalog(await getDb(), items);
}

export async function clearCatalog(): Promise<void> {
  const db = await getDb();
  await db.delete(markets);
  await db.delete(events);
}

/** Empties the catalog and everything matching derived from it. */
export async function clearCatalogAndMatches(): Promise<void> {
  const db = await getDb();
  await db.delete(marketMatches);
  await db.delete(matchFeatures);
  await clearCatalog();
}
