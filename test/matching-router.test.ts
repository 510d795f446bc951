import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Router } from "pmxt-core/dist/router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as passthrough } from "@/app/api/[exchange]/[method]/route";
import { GET as arbitrage } from "@/app/v0/arbitrage/route";
import { GET as eventMatches } from "@/app/v0/events/[id]/matches/route";
import { GET as eventsMatches } from "@/app/v0/events/matches/route";
import { GET as marketMatches } from "@/app/v0/markets/[id]/matches/route";
import { GET as matchedMarkets } from "@/app/v0/matched-markets/route";
import { getDb } from "@/lib/db";
import { marketMatches as matchesTable, matchFeatures } from "@/lib/db/schema";
import { runMatching } from "@/lib/matching/engine";
import { clearCatalog, makeEvent, seedCatalog } from "./helpers/catalog";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

// pmxt-core's Router (the hosted-API client) against Brier's matching routes over loopback HTTP:
// the shapes it reads are the shapes Brier serves.
type Handler = (request: Request, route: { params: Promise<{ id: string }> }) => Promise<Response>;
const routes: Array<[RegExp, Handler]> = [
  [/^\/v0\/markets\/([^/]+)\/matches$/, marketMatches as Handler],
  [/^\/v0\/events\/matches$/, eventsMatches as unknown as Handler],
  [/^\/v0\/events\/([^/]+)\/matches$/, eventMatches as Handler],
  [/^\/v0\/matched-markets$/, matchedMarkets as unknown as Handler],
  [/^\/v0\/arbitrage$/, arbitrage as unknown as Handler],
];

let server: Server;
let router: Router;
let key = "";

const outcomes = (id: string, label: string, price: number) => [
  { outcomeId: `${id}-yes`, label, price, priceChange24h: 0 },
  { outcomeId: `${id}-no`, label: `Not ${label}`, price: 1 - price, priceChange24h: 0 },
];

beforeAll(async () => {
  const db = await getDb();
  await db.delete(matchesTable);
  await db.delete(matchFeatures);
  await clearCatalog();
  await seedCatalog([
    makeEvent({ venue: "polymarket", venueEventId: "pm-putin", title: "Putin out as President of Russia by December 31, 2026?", category: "World" }, [
      { venueMarketId: "pm-putin", slug: "putin-out-2026", title: "Putin out as President of Russia by December 31, 2026? - Putin out as President of Russia by December 31, 2026?", outcomes: outcomes("pm-putin", "Yes", 0.08) },
    ]),
    makeEvent({ venue: "kalshi", venueEventId: "KXPUTINOUT-27", title: "Putin out before 2027?", category: "World" }, [
      {
        venueMarketId: "KXPUTINOUT-27",
        title: "Putin out before 2027?",
        description: "If Vladimir Putin ceases to hold the office of President of the Russian Federation for any length of time before Jan 1, 2027, then the market resolves to Yes.",
        outcomes: outcomes("KXPUTINOUT-27", "Before 2027", 0.12),
      },
    ]),
  ]);
  await runMatching(db, { full: true });
  key = (await makeKey("free")).key;
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const found = routes.map(([re, handler]) => [re.exec(url.pathname), handler] as const).find(([m]) => m !== null);
    if (found === undefined) {
      res.writeHead(404).end();
      return;
    }
    const [m, handler] = found;
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    void handler(new Request(url, { headers }), { params: Promise.resolve({ id: decodeURIComponent(m?.[1] ?? "") }) }).then(async (response) => {
      res.writeHead(response.status, { "content-type": "application/json" });
      res.end(await response.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  router = new Router({ apiKey: key, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("pmxt-core Router against Brier's matching endpoints", () => {
  it("fetchMarketMatches and compareMarketPrices find the identity by slug", async () => {
    const matches = await router.fetchMarketMatches({ slug: "putin-out-2026" });
    expect(matches).toHaveLength(1);
    expect(matches[0]).toMatchObject({ relation: "identity", market: { venueMarketId: "KXPUTINOUT-27" } });
    expect(matches[0]?.reasoning).toMatch(/before 2027-01-01/);
    const compared = await router.compareMarketPrices({ marketId: "pm-putin" });
    expect(compared[0]).toMatchObject({ relation: "identity", venue: "kalshi" });
  });

  it("browse mode, event matches, related markets and arbitrage", async () => {
    const browse = await router.fetchMarketMatches({ relation: "identity" });
    expect(browse).toHaveLength(1);
    const events = await router.fetchEventMatches({ eventId: "pm-putin" });
    expect(events[0]?.marketMatches[0]?.relation).toBe("identity");
    expect(await router.fetchRelatedMarkets({ marketId: "pm-putin" })).toEqual([]);
    const arb = await router.fetchArbitrage({ relations: ["identity"] });
    expect(arb[0]).toMatchObject({ buyVenue: "polymarket", sellVenue: "kalshi", buyPrice: 0.08, sellPrice: 0.12 });
    expect(arb[0]?.spread).toBeCloseTo(0.04, 6);
    const pairs = await router.fetchMatchedMarkets({ relations: ["identity"] });
    expect(pairs[0]?.priceDifference).toBeCloseTo(0.04, 6);
  });
});

describe("/api/router/{method}", () => {
  it.each([
    "fetchMarketMatches",
    "fetchMatches",
    "fetchEventMatches",
    "fetchMatchedMarkets",
    "fetchMatchedPrices",
    "fetchArbitrage",
    "compareMarketPrices",
    "fetchRelatedMarkets",
    "fetchHedges",
  ])("%s is routed to the router, not refused as unsupported", async (method) => {
    const res = await callRoute(passthrough, {
      path: `/api/router/${method}`,
      params: { exchange: "router", method },
      key,
      body: { args: [{ marketId: "pm-putin" }] },
    });
    // No server listens on the configured port in tests: the router's call back to Brier fails as a
    // network error. What must never happen: 501 (unsupported) or "No method matches".
    expect(res.status, res.text).not.toBe(501);
    expect(res.text).not.toMatch(/No method matches|not served by Brier/);
  });
});
