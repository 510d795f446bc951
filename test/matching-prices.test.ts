import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFakeVenues, CLOB_HOST, FIXTURE_IDS } from "./fakes/venue-server";

// includePrices on the matching endpoints: the recorder's live book first, else the venue's book
// through the pass-through (venue HTTP redirected to the loopback fake), else null with the reason.
const fake = createFakeVenues();
await fake.listen();
process.env.VENUE_REDIRECT_URL = fake.url;
process.env.VENUE_TIMEOUT_MS = "1500";
// Dynamic imports: lib/config must not be read before the two variables above are set.
const { GET: marketMatches } = await import("@/app/v0/markets/[id]/matches/route");
const { GET: matchedMarkets } = await import("@/app/v0/matched-markets/route");
const { AssetBook } = await import("@/lib/books/book-state");
const { getDb } = await import("@/lib/db");
const { clearBookPriceCache } = await import("@/lib/live/book-prices");
const { runMatching } = await import("@/lib/matching/engine");
const { getLiveBus } = await import("@/lib/live/connection");
const { LivePublisher } = await import("@/lib/live/publisher");
const { clearCatalogAndMatches, makeEvent, seedCatalog } = await import("./helpers/catalog");
const { makeKey } = await import("./helpers/keys");
const { callRoute } = await import("./helpers/routes");

const PM_CID = `0x${"cd".repeat(32)}`;
const PM_YES = FIXTURE_IDS.M1?.yes ?? "";
const KALSHI_TICKER = "KXFEDDECISION-27MAR-H0";

type Priced = { venueMarketId: string; bestBid?: number | null; bestAsk?: number | null; lastPrice?: number | null; priceSource?: string };
type MatchBody = { data: { market: Priced; matches: Array<{ market: Priced; relation: string }> } };

let key = "";

async function pricesOf() {
  const res = await callRoute(marketMatches, { path: `/v0/markets/${PM_CID}/matches?includePrices=true`, params: { id: PM_CID }, key });
  expect(res.status, res.text).toBe(200);
  const body = res.body as MatchBody;
  expect(body.data.matches).toHaveLength(1);
  return { polymarket: body.data.market, kalshi: body.data.matches[0]?.market };
}

beforeAll(async () => {
  key = (await makeKey("free")).key;
  await clearCatalogAndMatches();
  await seedCatalog([
    makeEvent({ venue: "polymarket", venueEventId: "pm-truce", title: "Russia x Ukraine ceasefire in 2026?", category: "World" }, [
      {
        venueMarketId: "pm-truce-sep",
        title: "Russia x Ukraine ceasefire in 2026? - Russia x Ukraine ceasefire by September 30, 2026?",
        outcomes: [
          { outcomeId: PM_YES, label: "September 30, 2026", price: 0.2, priceChange24h: 0 },
          { outcomeId: FIXTURE_IDS.M1?.no ?? "", label: "Not September 30, 2026", price: 0.8, priceChange24h: 0 },
        ],
        contractAddress: PM_CID,
        resolutionDate: new Date("2026-09-30T12:00:00Z"),
      },
    ]),
    makeEvent({ venue: "kalshi", venueEventId: "KXFEDDECISION-27MAR", title: "Russia-Ukraine ceasefire before Oct 1, 2026?", category: "World" }, [
      {
        venueMarketId: KALSHI_TICKER,
        title: "Russia-Ukraine ceasefire before Oct 1, 2026?",
        description: "If Russia and Ukraine both publicly agree to a general ceasefire or armistice before Oct 1, 2026, then the market resolves to Yes.",
        outcomes: [
          { outcomeId: KALSHI_TICKER, label: "Before Oct 1, 2026", price: 0.27, priceChange24h: 0 },
          { outcomeId: `${KALSHI_TICKER}-NO`, label: "Not before Oct 1, 2026", price: 0.73, priceChange24h: 0 },
        ],
        contractAddress: null,
        resolutionDate: new Date("2026-09-30T23:59:00Z"),
      },
    ]),
  ]);
  await runMatching(await getDb(), { full: true });
});

beforeEach(() => {
  fake.reset();
  clearBookPriceCache();
});

afterAll(() => fake.close());

describe("includePrices on the matching endpoints", () => {
  it("reads both venues' books through the pass-through when Brier does not record the outcome", async () => {
    const { polymarket, kalshi } = await pricesOf();
    // The CLOB fixture's best bid and ask. pmxt's Kalshi client signs even its book reads, and this
    // endpoint holds no caller credentials: null prices, the reason, the catalog's last price.
    expect(polymarket).toMatchObject({ bestBid: 0.61, bestAsk: 0.63, lastPrice: 0.2, priceSource: "venue" });
    expect(kalshi).toMatchObject({ venueMarketId: KALSHI_TICKER, bestBid: null, bestAsk: null, lastPrice: 0.27, priceSource: "venue_needs_credentials" });
    expect(fake.requestsTo(`${CLOB_HOST}/book`).map((r) => r.query.token_id)).toEqual([PM_YES]);

    // A reload within the cache's few seconds asks the venue nothing.
    await pricesOf();
    expect(fake.requestsTo(`${CLOB_HOST}/book`)).toHaveLength(1);

    // Without includePrices, no price fields and no venue call.
    const plain = await callRoute(marketMatches, { path: `/v0/markets/${PM_CID}/matches`, params: { id: PM_CID }, key });
    expect((plain.body as MatchBody).data.market).not.toHaveProperty("priceSource");
    expect(fake.requestsTo(`${CLOB_HOST}/book`)).toHaveLength(1);
  });

  it("prefers the recorder's live book of a recorded outcome", async () => {
    const book = new AssetBook(PM_YES, PM_CID);
    book.applySnapshot([["0.44", "10"], ["0.45", "3"]], [["0.47", "8"], ["0.49", "2"]], Date.now());
    const publisher = new LivePublisher(await getLiveBus());
    publisher.attach({ isRecording: (assetId) => assetId === PM_YES, book: (assetId) => (assetId === PM_YES ? book : undefined) });
    try {
      const { polymarket, kalshi } = await pricesOf();
      expect(polymarket).toMatchObject({ bestBid: 0.45, bestAsk: 0.47, priceSource: "recorder" });
      expect(kalshi).toMatchObject({ priceSource: "venue_needs_credentials" });
      expect(fake.requestsTo(`${CLOB_HOST}/book`)).toHaveLength(0);
    } finally {
      publisher.detach();
    }
  });

  it("answers 200 with null prices and the reason when a venue errs or does not answer in time", async () => {
    fake.fail(`${CLOB_HOST}/book`, { kind: "status", status: 500, body: { error: "upstream broke" } });
    const failed = await pricesOf();
    expect(failed.polymarket).toMatchObject({ bestBid: null, bestAsk: null, lastPrice: 0.2, priceSource: "venue_error" });
    expect(failed.kalshi).toMatchObject({ priceSource: "venue_needs_credentials" });

    clearBookPriceCache();
    fake.heal();
    fake.fail(`${CLOB_HOST}/book`, { kind: "hang" });
    const started = Date.now();
    const res = await callRoute(matchedMarkets, { path: "/v0/matched-markets?includePrices=true", key });
    expect(res.status, res.text).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    const pair = (res.body as { data: Array<{ marketA: Priced; marketB: Priced }> }).data[0];
    const sides = [pair?.marketA, pair?.marketB];
    expect(sides.find((m) => m?.venueMarketId === "pm-truce-sep")).toMatchObject({ bestBid: null, bestAsk: null, priceSource: "venue_timeout" });
    expect(sides.find((m) => m?.venueMarketId === KALSHI_TICKER)).toMatchObject({ priceSource: "venue_needs_credentials" });
  });
});
