import { beforeAll, describe, expect, it } from "vitest";
import { GET as eventMatches } from "@/app/v0/events/[id]/matches/route";
import { GET as eventRoute } from "@/app/v0/events/[id]/route";
import { GET as marketMatches } from "@/app/v0/markets/[id]/matches/route";
import { GET as marketRoute } from "@/app/v0/markets/[id]/route";
import { getDb } from "@/lib/db";
import { runMatching } from "@/lib/matching/engine";
import { clearCatalogAndMatches, makeEvent, seedCatalog } from "./helpers/catalog";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

// A venue page URL, as an analyst copies it from the browser, is accepted wherever a market or
// event id is: the route receives it percent-decoded (as Next and server.mjs hand path params)
// or still encoded.
const outcomes = (id: string, label: string, price: number) => [
  { outcomeId: `${id}-yes`, label, price, priceChange24h: 0 },
  { outcomeId: `${id}-no`, label: `Not ${label}`, price: 1 - price, priceChange24h: 0 },
];

let key = "";

beforeAll(async () => {
  key = (await makeKey("free")).key;
  await clearCatalogAndMatches();
  await seedCatalog([
    makeEvent({ venue: "polymarket", venueEventId: "9001", slug: "lunar-lander-touchdown-2026", title: "Lunar lander touchdown in 2026?", category: "Science & Tech" }, [
      {
        venueMarketId: "9001-sep",
        slug: "lunar-lander-touchdown-by-september-30-2026",
        title: "Lunar lander touchdown by September 30, 2026?",
        outcomes: outcomes("9001-sep", "September 30, 2026", 0.3),
        resolutionDate: new Date("2026-09-30T12:00:00Z"),
      },
      {
        venueMarketId: "9001-dec",
        slug: "lunar-lander-touchdown-by-december-31-2026",
        title: "Lunar lander touchdown by December 31, 2026?",
        outcomes: outcomes("9001-dec", "December 31, 2026", 0.5),
        resolutionDate: new Date("2026-12-31T12:00:00Z"),
      },
    ]),
    makeEvent({ venue: "polymarket", venueEventId: "9002", slug: "rover-returns-samples-2027", title: "Rover returns samples in 2027?", category: "Science & Tech" }, [
      { venueMarketId: "9002-m", slug: "rover-returns-samples-2027", title: "Rover returns samples in 2027?", outcomes: outcomes("9002-m", "Yes", 0.1) },
    ]),
    makeEvent({ venue: "kalshi", venueEventId: "KXLANDER-26", slug: "kxlander-26", title: "Lunar lander touchdown before Oct 1, 2026?", category: "Science & Tech" }, [
      {
        venueMarketId: "KXLANDER-26-OCT01",
        slug: null,
        title: "Lunar lander touchdown before Oct 1, 2026?",
        outcomes: outcomes("KXLANDER-26-OCT01", "Before Oct 1, 2026", 0.33),
        resolutionDate: new Date("2026-09-30T23:59:00Z"),
      },
    ]),
  ]);
  await runMatching(await getDb(), { full: true });
});

type Market = { data: { venueMarketId: string } };
type Event = { data: { venueEventId: string } };

async function get<T>(handler: typeof marketRoute, base: string, id: string, suffix = "") {
  const res = await callRoute(handler, { path: `${base}/${encodeURIComponent(id)}${suffix}`, params: { id }, key });
  return { status: res.status, body: res.body as T, text: res.text };
}

describe("venue page URLs as ids", () => {
  it("resolves Polymarket market and event URLs on /v0/markets/{id}", async () => {
    const market = "https://polymarket.com/event/lunar-lander-touchdown-2026/lunar-lander-touchdown-by-december-31-2026";
    expect((await get<Market>(marketRoute, "/v0/markets", market)).body.data.venueMarketId).toBe("9001-dec");
    expect((await get<Market>(marketRoute, "/v0/markets", "https://polymarket.com/market/lunar-lander-touchdown-by-september-30-2026?tid=1")).body.data.venueMarketId).toBe("9001-sep");
    // Still percent-encoded, as a client that encoded it twice sends it.
    expect((await get<Market>(marketRoute, "/v0/markets", encodeURIComponent("https://www.polymarket.com/event/rover-returns-samples-2027"))).body.data.venueMarketId).toBe("9002-m");

    // An event URL names one market only when the event has one: otherwise a clear 404.
    const ambiguous = await get<{ error: { code: string; message: string } }>(marketRoute, "/v0/markets", "https://polymarket.com/event/lunar-lander-touchdown-2026");
    expect(ambiguous.status).toBe(404);
    expect(ambiguous.body.error.message).toMatch(/event with 2 markets/);
    expect((await get(marketRoute, "/v0/markets", "https://polymarket.com/event/no-such-event")).status).toBe(404);
    // Another host's page is not a venue URL.
    expect((await get(marketRoute, "/v0/markets", "https://example.com/event/lunar-lander-touchdown-2026")).status).toBe(404);
  });

  it("resolves Kalshi market URLs (lower-case tickers) on markets, events and their matches", async () => {
    const url = "https://kalshi.com/markets/kxlander/lunar-lander-touchdown/kxlander-26-oct01";
    expect((await get<Market>(marketRoute, "/v0/markets", url)).body.data.venueMarketId).toBe("KXLANDER-26-OCT01");
    expect((await get<Event>(eventRoute, "/v0/events", url)).body.data.venueEventId).toBe("KXLANDER-26");
    // The event's URL names its single market too.
    expect((await get<Market>(marketRoute, "/v0/markets", "https://kalshi.com/markets/kxlander/lunar-lander-touchdown/kxlander-26")).body.data.venueMarketId).toBe("KXLANDER-26-OCT01");

    const matches = await get<{ data: { market: { venueMarketId: string }; matches: Array<{ market: { venueMarketId: string } }> } }>(marketMatches, "/v0/markets", url, "/matches");
    expect(matches.status, matches.text).toBe(200);
    expect(matches.body.data.market.venueMarketId).toBe("KXLANDER-26-OCT01");
    expect(matches.body.data.matches.map((m) => m.market.venueMarketId)).toContain("9001-sep");
  });

  it("resolves Polymarket URLs on /v0/events/{id} and its matches", async () => {
    expect((await get<Event>(eventRoute, "/v0/events", "https://polymarket.com/event/lunar-lander-touchdown-2026")).body.data.venueEventId).toBe("9001");
    expect((await get<Event>(eventRoute, "/v0/events", "https://polymarket.com/market/rover-returns-samples-2027")).body.data.venueEventId).toBe("9002");
    const matches = await get<{ data: { event: { venueEventId: string }; matches: Array<{ event: { venueEventId: string } }> } }>(
      eventMatches,
      "/v0/events",
      "https://polymarket.com/event/lunar-lander-touchdown-2026/",
      "/matches",
    );
    expect(matches.status, matches.text).toBe(200);
    expect(matches.body.data.event.venueEventId).toBe("9001");
    expect(matches.body.data.matches.map((m) => m.event.venueEventId)).toEqual(["KXLANDER-26"]);
  });
});
