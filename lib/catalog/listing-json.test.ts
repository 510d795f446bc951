import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { marketOutcomes, marketQuotes, type NewMarketRow, type StoredOutcome } from "@/lib/db/schema";
import { parseQuery } from "@/lib/input";
import { clearCatalog, makeEvent, seedCatalog } from "@/test/helpers/catalog";
import type { NormalizedEvent } from "./normalize";
import { marketListingJson, searchMarkets } from "./list";
import { listMarketsQuery, type ListMeta } from "./shapes";
import { markMarketsClosed } from "./store";

// GET /v0/markets answers each market's public JSON kept by its row versions (lib/catalog/list.ts
// `marketListingJson`). Every page must be byte for byte what JSON.stringify writes of the same page
// as `searchMarkets` builds it (`toMarketPublic` of every row, read from the tables): the same
// fields in the same order, the same prices, every number in the same notation; and a market that
// changed in any way (its row, its quote, its outcome) must be answered as it is now, never as kept.

// Deterministic values (a linear congruential generator): the same rows every run.
let seed = 0x1157;
function random(): number {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}
const pick = <T,>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;

// Every venue with its own price grid, and two without one (the 1e-6 default).
const venues = ["polymarket", "polymarket_us", "kalshi", "kalshi-demo", "limitless", "myriad"];
const categories = ["Politics", "Sports", "Crypto", "Economics"];

// Doubles whose notation differs between PostgreSQL and JavaScript, or that sit on a rounding edge.
const awkwardNumbers = [
  0, -0, 1, -1, 0.1 + 0.2, 1 - 0.85, 0.5, 0.49999999999999994, 0.00005, 0.00015, 0.0005, 0.0015, 0.000_000_5, 0.000_001_5,
  1e-4, 1.5e-5, 1e-5, 1e-6, 1.5e-6, 1e-7, 2.5e-7, 5e-324, Number.MIN_VALUE * 3, 1e14, 1e15, 1.5e15, 123456789012345680, 1e20,
  1e21, 1.5e21, 2 ** 53 + 2, 1.7976931348623157e308, 12345.678901234567, 0.1234565, 0.9999995, 0.0004999, 0.12345, 999999.5,
];
const price = () => (random() < 0.5 ? pick(awkwardNumbers) : random() < 0.5 ? random() : -random() * 0.3) * (random() < 0.2 ? -1 : 1);
// Volumes without the largest and the subnormal doubles: an event's volume is the sum of its
// markets' (Infinity is not stored) and the writer's change test multiplies them (underflow).
const awkwardVolumes = awkwardNumbers.filter((v) => Math.abs(v) < 1e300 && (v === 0 || Math.abs(v) > 1e-300)).concat(1.5e300, 2.5e-300);
const volume = () => (random() < 0.5 ? Math.abs(pick(awkwardVolumes)) : random() < 0.5 ? random() * 10 ** Math.floor(random() * 25 - 8) : Math.floor(random() * 1e6));

const titles = [
  "Will the price of ₿ exceed $100k?",
  "Élection présidentielle: qui gagnera ?",
  "総選挙で与党が勝つか",
  "Quotes \"double\" and 'single' and \\backslash\\ and / slash",
  "Emoji 🚀🇺🇸 and a zero-width\u200bjoiner\u200d and \u2028 line separator",
  "Tab\there, newline\nthere, bell\u0007 and \u001f unit separator",
  "</script><b>markup</b> & ampersand",
  "Ünïcödé ÑAME with combining e\u0301",
];

function awkwardOutcomes(venueMarketId: string): StoredOutcome[] {
  const n = pick([0, 1, 2, 2, 2, 3, 5]);
  return Array.from({ length: n }, (_, i) => ({
    outcomeId: `${venueMarketId}-${i}${i === 1 ? "\"ü" : ""}`,
    label: pick(["Yes", "No", "Ja \u00e9", "\u6b63", "a\\b", "tab\tlabel", ""]),
    price: price(),
    priceChange24h: price(),
  }));
}

function awkwardMarket(i: number): Partial<NewMarketRow> {
  const venueMarketId = `awkward-${i}`;
  const closed = random() < 0.3;
  return {
    venueMarketId,
    title: `${pick(titles)} #${i} senate`,
    slug: random() < 0.2 ? null : `slug-${i}-ü`,
    description: random() < 0.3 ? null : pick(titles),
    outcomes: awkwardOutcomes(venueMarketId),
    volume24h: volume(),
    volume: random() < 0.3 ? null : volume(),
    liquidity: random() < 0.3 ? null : volume(),
    openInterest: random() < 0.3 ? null : volume(),
    status: pick([null, "active", "ACTIVE", "Paused", "settled", "closed", "İnactive", "unknown-state", "open"]),
    closed,
    resolutionDate: random() < 0.3 ? null : new Date(Date.UTC(2026, Math.floor(random() * 24), 1 + Math.floor(random() * 27), 0, 0, 0, Math.floor(random() * 86_400_000))),
    contractAddress: random() < 0.5 ? null : `0x${i.toString(16)}`,
    url: random() < 0.5 ? null : `https://venue.example/m/${i}?a=1&b="x"`,
    image: random() < 0.5 ? null : `https://venue.example/i/${i}.png`,
  };
}

const MARKETS = 240;

async function seedAwkward(): Promise<NormalizedEvent[]> {
  const items: NormalizedEvent[] = [];
  for (let i = 0; i < MARKETS; i += 4) {
    const venue = venues[(i / 4) % venues.length] as string;
    items.push(makeEvent({ venue, category: pick(categories) }, [0, 1, 2, 3].map((k) => awkwardMarket(i + k))));
  }
  await seedCatalog(items);
  // Outcomes for a third of the markets: every state, null and awkward settlement values, synthetic ones.
  const db = await getDb();
  const rows = items.flatMap((e) => e.markets).filter(() => random() < 0.35).map((m) => ({
    venue: m.venue,
    venueMarketId: m.venueMarketId,
    market: m.contractAddress ?? m.venueMarketId,
    outcomeIds: m.outcomeIds ?? [],
    state: pick(["open", "closed", "proposed", "disputed", "determined", "settled", "voided", "unknown"]),
    venueState: pick([null, "finalized", "Ünïcode \"state\""]),
    winningOutcomeId: random() < 0.5 ? null : `${m.venueMarketId}-0`,
    settlementValue: pick([null, 0, 1, 0.5, 1 - 0.85, 1e-7, 0.1 + 0.2]),
    closedAt: random() < 0.5 ? null : new Date(Date.UTC(2026, 3, 4, 5, 6, 7, 891)),
    determinedAt: random() < 0.5 ? null : new Date(Date.UTC(2026, 3, 5)),
    settledAt: random() < 0.5 ? null : new Date(Date.UTC(2026, 3, 6, 1, 2, 3, 4)),
    venueTime: new Date(Date.UTC(2026, 3, 6)),
    receivedAt: new Date(Date.UTC(2026, 3, 7, 8, 9, 10, 11)),
    source: pick(["rest", "historical", "push", "catalog", "synthetic"]),
    resolutionSource: random() < 0.5 ? null : "https://resolver.example/\u00fc",
  }));
  await db.insert(marketOutcomes).values(rows);
  return items;
}

async function listingBytes(qs: string): Promise<Buffer> {
  return marketListingJson(await getDb(), parseQuery(listMarketsQuery, new URLSearchParams(qs)));
}

/** The same page as the listing built it before it kept JSON: every row shaped and the whole page serialised. */
async function shapedPage(qs: string): Promise<string> {
  return JSON.stringify(await searchMarkets(await getDb(), parseQuery(listMarketsQuery, new URLSearchParams(qs))));
}

/**
 * Both ways of a page: the kept JSON's made from the markets' JSON (kept by earlier pages where they
 * listed the same markets), then, nothing having changed, the very bytes it answered (the page kept).
 */
async function expectSamePage(qs: string): Promise<string> {
  const first = await listingBytes(qs);
  const expected = await shapedPage(qs);
  expect(first.toString("utf8")).toBe(expected);
  expect(await listingBytes(qs)).toBe(first);
  return expected;
}

const shapes = [
  "",
  "closed=true",
  "closed=true&limit=500",
  "closed=true&sort=change24h&limit=500",
  "closed=true&sort=liquidity&limit=500",
  "closed=true&sort=resolutionDate&limit=500",
  "closed=true&sort=newest&limit=500",
  "category=Sports&closed=true",
  "exchange=kalshi&closed=true",
  "exchange=polymarket&category=Politics&closed=true&limit=3",
  "closed=true&offset=37&limit=11",
  "closed=true&query=senate&limit=20",
  "query=%E2%82%BF",
  "closed=true&query=slug&limit=30",
];

describe("the listing's kept market JSON", () => {
  let items: NormalizedEvent[] = [];

  beforeAll(async () => {
    await clearCatalog();
    await getDb().then((db) => db.delete(marketOutcomes));
    items = await seedAwkward();
  }, 120_000);

  it.each(shapes)("is byte for byte the shaped page (%s)", async (qs) => {
    const body = await expectSamePage(qs);
    expect((JSON.parse(body) as { data: unknown[] }).data.length).toBeGreaterThan(0);
  }, 60_000);

  it("walks every sort by cursor, every page byte for byte the shaped page, every market once", async () => {
    for (const sort of ["volume24h", "change24h", "liquidity", "resolutionDate", "newest"]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const qs: string = `closed=true&sort=${sort}&limit=40${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`;
        const body = await expectSamePage(qs);
        const parsed = JSON.parse(body) as { data: Array<{ marketId: string }>; meta: ListMeta };
        seen.push(...parsed.data.map((m) => m.marketId));
        cursor = parsed.meta.nextCursor;
      } while (cursor !== null);
      expect(new Set(seen).size).toBe(MARKETS);
      expect(seen).toHaveLength(MARKETS);
    }
  }, 180_000);

  it("answers a market as it is after every kind of write, never as kept", async () => {
    const all = "closed=true&limit=500";
    const db = await getDb();
    const before = await expectSamePage(all);
    const event = items[0];
    const market = event?.markets[0];
    if (event === undefined || market === undefined) throw new Error("no seeded market");
    const publicOf = (body: string) => (JSON.parse(body) as { data: Array<{ marketId: string } & Record<string, unknown>> }).data.find((m) => m.marketId === market.id);

    // A new poll moves its prices and title (the quote and the market rows).
    const moved = { ...market, title: `${market.title} (moved)`, outcomes: market.outcomes.map((o) => ({ ...o, price: o.price + 0.25 })), lastSeenAt: new Date(Date.UTC(2026, 10, 1)) };
    await seedCatalog([{ ...event, markets: [moved, ...event.markets.slice(1)] }]);
    const afterPoll = await expectSamePage(all);
    expect(afterPoll).not.toBe(before);
    expect(publicOf(afterPoll)?.title).toBe(moved.title);

    // Only the quote changes (a poll whose market row is unchanged: the quote statement alone).
    await seedCatalog([{ ...event, markets: [{ ...moved, volume: 4242.5 }, ...event.markets.slice(1)] }]);
    const afterQuote = await expectSamePage(all);
    expect(publicOf(afterQuote)?.volume).toBe(4242.5);

    // A write that leaves every value as it was (a new row version): the same page.
    await db.update(marketQuotes).set({ volume: 4242.5 }).where(eq(marketQuotes.id, market.id));
    expect(await expectSamePage(all)).toBe(afterQuote);

    // Its outcome is learned, then changes.
    await db.delete(marketOutcomes).where(eq(marketOutcomes.venueMarketId, market.venueMarketId));
    const outcome = {
      venue: market.venue,
      venueMarketId: market.venueMarketId,
      market: market.venueMarketId,
      outcomeIds: market.outcomeIds ?? [],
      state: "determined",
      venueState: null,
      winningOutcomeId: null,
      settlementValue: null,
      closedAt: null,
      determinedAt: new Date(Date.UTC(2026, 10, 2)),
      settledAt: null,
      venueTime: new Date(Date.UTC(2026, 10, 2)),
      receivedAt: new Date(Date.UTC(2026, 10, 2, 1)),
      source: "rest",
      resolutionSource: null,
    } as const;
    await db.insert(marketOutcomes).values(outcome);
    const afterOutcome = await expectSamePage(all);
    expect((publicOf(afterOutcome)?.resolution as { state: string }).state).toBe("determined");
    await db.update(marketOutcomes).set({ state: "settled", settlementValue: 1 }).where(eq(marketOutcomes.venueMarketId, market.venueMarketId));
    const afterSettled = await expectSamePage(all);
    expect((publicOf(afterSettled)?.resolution as { state: string }).state).toBe("settled");

    // Closed by a direct lookup.
    await markMarketsClosed(db, [{ id: market.id, eventId: market.eventId, status: "closed-by-lookup" }]);
    const afterClosed = await expectSamePage(all);
    expect(publicOf(afterClosed)?.status).toBe("closed-by-lookup");
    expect(publicOf(afterClosed)?.closed).toBe(true);
  }, 120_000);
});
