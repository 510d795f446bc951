import { beforeAll, describe, expect, it } from "vitest";
import { GET as getEvent } from "@/app/v0/events/[id]/route";
import { GET as listEvents } from "@/app/v0/events/route";
import { GET as getMarket } from "@/app/v0/markets/[id]/route";
import { GET as listMarkets } from "@/app/v0/markets/route";
import { GET as openapi } from "@/app/v0/openapi.json/route";
import { encodeCursor } from "@/lib/catalog/cursor";
import { marketUuid } from "@/lib/catalog/ids";
import { eventListResponse, marketListResponse, type MarketPublic } from "@/lib/catalog/shapes";
import { describeKeyedRoute } from "./helpers/auth-suite";
import { clearCatalog, makeEvent, seedCatalog } from "./helpers/catalog";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

let key = "";

type MarketList = { data: MarketPublic[]; meta: { count: number; limit: number; offset: number; nextCursor: string | null } };

async function markets(query: string): Promise<{ status: number; body: MarketList & { error?: { code: string; parameter?: string } } }> {
  const res = await callRoute(listMarkets, { path: `/v0/markets${query}`, key });
  return res as never;
}

beforeAll(async () => {
  ({ key } = await makeKey("pro"));
});

describeKeyedRoute({ name: "GET /v0/markets", handler: listMarkets, request: { path: "/v0/markets" }, surface: "v0" });
describeKeyedRoute({ name: "GET /v0/events", handler: listEvents, request: { path: "/v0/events" }, surface: "v0" });
describeKeyedRoute({
  name: "GET /v0/markets/{id}",
  handler: getMarket,
  request: { path: "/v0/markets/x", params: { id: "x" } },
  surface: "v0",
});
describeKeyedRoute({
  name: "GET /v0/events/{id}",
  handler: getEvent,
  request: { path: "/v0/events/x", params: { id: "x" } },
  surface: "v0",
});

describe("GET /v0/markets parameters", () => {
  beforeAll(async () => {
    await clearCatalog();
    await seedCatalog([
      makeEvent({ venue: "polymarket", category: "Politics", title: "Senate 2026" }, [
        { title: "Will the 100% turnout happen?", slug: "turnout_100", volume24h: 500 },
        { title: "Who wins the SENATE race?", slug: "senate-race", volume24h: 900 },
      ]),
      makeEvent({ venue: "kalshi", category: "Economics" }, [
        { title: "Fed holds in March", slug: "fed-hold", volume24h: 700 },
        { title: "Fed cuts (closed)", slug: "fed-cut", volume24h: 800, closed: true, status: "settled" },
      ]),
      makeEvent({ venue: "mock", category: "Crypto" }, Array.from({ length: 60 }, (_, i) => ({ volume24h: i }))),
    ]);
  });

  it.each([
    ["limit=-1", "limit"],
    ["limit=abc", "limit"],
    ["limit=1.5", "limit"],
    ["limit=0", "limit"],
    ["offset=-5", "offset"],
    ["offset=ten", "offset"],
    ["closed=maybe", "closed"],
    ["closed=1", "closed"],
    ["exchange=nyse", "exchange"],
    ["sourceExchange=nyse", "sourceExchange"],
    ["category=politics", "category"],
    ["category=Space", "category"],
    [`query=${"a".repeat(201)}`, "query"],
    [`q=${"a".repeat(201)}`, "q"],
    ["query=senate%1Frace", "query"],
    ["query=a%00b", "query"],
    ["cursor=not-a-cursor!", "cursor"],
    [`cursor=${Buffer.from("[1,2]").toString("base64url")}`, "cursor"],
    [`cursor=${Buffer.from('["x","00000000-0000-5000-8000-000000000000"]').toString("base64url")}`, "cursor"],
    [`cursor=${encodeCursor({ sort: "volume24h", key: 1, id: "00000000-0000-5000-8000-000000000000" })}&offset=5`, "offset"],
    ["limit=5&limit=6", "limit"],
    ["query=a&q=b", "q"],
    ["exchange=kalshi&sourceExchange=mock", "sourceExchange"],
  ])("?%s -> 400 invalid_parameter naming %s", async (qs, parameter) => {
    for (const handler of [listMarkets, listEvents]) {
      const res = await callRoute(handler, { path: `/v0/markets?${qs}`, key });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: { code: "invalid_parameter", parameter } });
    }
  });

  it("a limit that is not a number says what a limit must be, not only that the input is invalid", async () => {
    const res = await markets("?limit=abc");
    expect(res.body).toMatchObject({ error: { parameter: "limit", message: "limit must be an integer" } });
  });

  it.each([
    ["", 50, 0],
    ["?limit=10", 10, 0],
    ["?limit=501", 500, 0],
    ["?limit=100000000000000000000", 500, 0],
    ["?offset=3&limit=2", 2, 3],
    ["?limit=", 50, 0],
  ])("%s -> meta.limit %i, meta.offset %i, count = rows", async (qs, limit, offset) => {
    const res = await markets(qs);
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ limit, offset, count: res.body.data.length });
    expect(res.body.data.length).toBeLessThanOrEqual(limit);
    expect(marketListResponse.safeParse(res.body).success).toBe(true);
  });

  it("orders by volume24h descending, ties by id descending, and pages without overlap", async () => {
    const all = (await markets("?limit=500")).body.data;
    expect(all.length).toBe(63);
    for (let i = 1; i < all.length; i += 1) {
      const [a, b] = [all[i - 1], all[i]];
      if (a === undefined || b === undefined) throw new Error("missing row");
      expect(a.volume24h > b.volume24h || (a.volume24h === b.volume24h && a.marketId > b.marketId)).toBe(true);
    }
    const page2 = (await markets("?limit=10&offset=10")).body.data;
    expect(page2.map((m) => m.marketId)).toEqual(all.slice(10, 20).map((m) => m.marketId));
  });

  it("closed=false (default) hides closed markets; closed=true includes them", async () => {
    const open = (await markets("?limit=500")).body.data;
    expect(open.some((m) => m.closed)).toBe(false);
    const withClosed = (await markets("?limit=500&closed=true")).body.data;
    expect(withClosed.filter((m) => m.closed).map((m) => m.title)).toEqual(["Fed cuts (closed)"]);
  });

  it.each([
    ["?category=Economics", ["Fed holds in March"]],
    ["?exchange=kalshi", ["Fed holds in March"]],
    ["?sourceExchange=kalshi", ["Fed holds in March"]],
    ["?category=Politics&exchange=polymarket", ["Who wins the SENATE race?", "Will the 100% turnout happen?"]],
    ["?category=Politics&exchange=kalshi", []],
    ["?query=senate", ["Who wins the SENATE race?"]],
    ["?q=SeNaTe", ["Who wins the SENATE race?"]],
    ["?query=fed-hold", ["Fed holds in March"]],
    ["?query=100%25", ["Will the 100% turnout happen?"]],
    ["?query=turnout_", ["Will the 100% turnout happen?"]],
    ["?query=%25", ["Will the 100% turnout happen?"]],
    ["?query=_", ["Will the 100% turnout happen?"]],
    ["?query=nothing-matches-this", []],
  ])("%s -> %j", async (qs, titles) => {
    const res = await markets(`${qs}${qs.includes("?") ? "&" : "?"}limit=500`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((m) => m.title)).toEqual(titles);
  });

  it("returns the public market shape with yes/no on binary markets and no internals", async () => {
    const [m] = (await markets("?exchange=kalshi")).body.data;
    expect(m).toMatchObject({ exchange: "kalshi", category: "Economics", status: "active", closed: false });
    expect(m?.yes?.label).toBe("Yes");
    expect(m?.no?.label).toBe("No");
    expect(m?.marketId).toBe(marketUuid("kalshi", m?.venueMarketId ?? ""));
    expect(Object.keys(m ?? {})).not.toContain("outcomeIds");
  });
});

describe("GET /v0/events", () => {
  beforeAll(async () => {
    await clearCatalog();
    await seedCatalog([
      makeEvent({ venue: "polymarket", venueEventId: "E1", slug: "big-event", title: "Big event", category: "Sports" }, [
        { volume24h: 10, venueMarketId: "E1-a" },
        { volume24h: 30, venueMarketId: "E1-b" },
        { volume24h: 99, venueMarketId: "E1-c", closed: true, status: "closed" },
      ]),
      makeEvent({ venue: "kalshi", venueEventId: "E2", title: "Closed event", category: "Sports" }, [
        { volume24h: 5000, closed: true, status: "settled" },
      ]),
    ]);
  });

  it("nests open markets by volume, hides closed events by default", async () => {
    const res = await callRoute(listEvents, { path: "/v0/events", key });
    expect(res.status).toBe(200);
    expect(eventListResponse.safeParse(res.body).success).toBe(true);
    const body = res.body as { data: Array<{ title: string; markets: Array<{ venueMarketId: string }> }> };
    expect(body.data.map((e) => e.title)).toEqual(["Big event"]);
    expect(body.data[0]?.markets.map((m) => m.venueMarketId)).toEqual(["E1-b", "E1-a"]);
  });

  it("closed=true includes closed events and closed markets", async () => {
    const res = await callRoute(listEvents, { path: "/v0/events?closed=true&category=Sports", key });
    const body = res.body as { data: Array<{ title: string; markets: unknown[] }> };
    expect(body.data.map((e) => e.title)).toEqual(["Closed event", "Big event"]);
    expect(body.data[1]?.markets).toHaveLength(3);
  });

  it.each([["big-event"], ["E1"]])("GET /v0/events/%s finds it with all markets", async (ref) => {
    const res = await callRoute(getEvent, { path: `/v0/events/${ref}`, key, params: { id: ref } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: { title: "Big event", venueEventId: "E1" } });
    expect((res.body as { data: { markets: unknown[] } }).data.markets).toHaveLength(3);
  });

  it("GET /v0/events/{uuid} and 404 for an unknown reference", async () => {
    const list = await callRoute(listEvents, { path: "/v0/events", key });
    const id = (list.body as { data: Array<{ eventId: string }> }).data[0]?.eventId ?? "";
    expect((await callRoute(getEvent, { path: `/v0/events/${id}`, key, params: { id } })).status).toBe(200);
    const missing = await callRoute(getEvent, { path: "/v0/events/nope", key, params: { id: "nope" } });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: { code: "not_found" } });
  });
});

describe("GET /v0/markets/{id}", () => {
  const venueMarketId = "0xlookup-market";
  beforeAll(async () => {
    await clearCatalog();
    await seedCatalog([
      makeEvent({ venue: "polymarket" }, [
        {
          venueMarketId,
          slug: "lookup-slug",
          contractAddress: "0xabc123",
          outcomes: [
            { outcomeId: "111", label: "Yes", price: 0.5, priceChange24h: 0 },
            { outcomeId: "222", label: "No", price: 0.5, priceChange24h: 0 },
          ],
        },
      ]),
    ]);
  });

  it.each([
    ["catalog UUID", marketUuid("polymarket", "0xlookup-market")],
    ["catalog UUID in upper case", marketUuid("polymarket", "0xlookup-market").toUpperCase()],
    ["slug", "lookup-slug"],
    ["venue market id", venueMarketId],
    ["contractAddress", "0xabc123"],
    ["YES outcome id", "111"],
    ["NO outcome id", "222"],
  ])("finds the market by %s", async (_label, ref) => {
    const res = await callRoute(getMarket, { path: `/v0/markets/${ref}`, key, params: { id: ref } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: { venueMarketId, contractAddress: "0xabc123" } });
  });

  it.each([["unknown"], ["00000000-0000-5000-8000-000000000000"], ["%"], ["x".repeat(600)]])(
    "answers 404 for %s",
    async (ref) => {
      const res = await callRoute(getMarket, { path: "/v0/markets/x", key, params: { id: ref } });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: { code: "not_found" } });
    },
  );
});

describe("GET /v0/openapi.json", () => {
  it("documents every list parameter and every market field, from the zod schemas", async () => {
    const res = await callRoute(openapi, { path: "/v0/openapi.json" });
    expect(res.status).toBe(200);
    const doc = res.body as {
      openapi: string;
      paths: Record<string, { get: { parameters: Array<{ name: string; description?: string }> } }>;
      components: { schemas: Record<string, { properties: Record<string, { description?: string }> }> };
    };
    expect(doc.openapi).toBe("3.1.0");
    const names = doc.paths["/v0/markets"]?.get.parameters.map((p) => p.name);
    expect(names).toEqual(["query", "q", "limit", "offset", "closed", "category", "exchange", "sourceExchange", "sort", "cursor"]);
    for (const p of doc.paths["/v0/events"]?.get.parameters ?? []) expect(p.description).toBeTruthy();
    for (const schema of ["Market", "Event", "Outcome"]) {
      for (const [field, prop] of Object.entries(doc.components.schemas[schema]?.properties ?? {})) {
        expect(prop.description, `${schema}.${field}`).toBeTruthy();
      }
    }
  });
});
