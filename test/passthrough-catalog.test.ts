import { describe, expect, it } from "vitest";
import { callRoute } from "./helpers/routes";

// mock is a catalog venue by default only on embedded Postgres; name it so the suite runs on both.
// Dynamic imports: lib/config must not be read before this is set.
process.env.CATALOG_VENUES = "mock";
const { POST } = await import("@/app/api/[exchange]/[method]/route");
const { pollVenue } = await import("@/lib/catalog/ingest");
const { getDb } = await import("@/lib/db");
const { makeKey } = await import("./helpers/keys");

type Params = { exchange: string; method: string };
type Envelope = { success: boolean; data?: unknown; error?: { code: string } };

async function post(key: string, exchange: string, method: string, body: unknown) {
  const res = await callRoute<Params>(POST, { path: `/api/${exchange}/${method}`, key, body, params: { exchange, method } });
  return { ...res, body: res.body as Envelope };
}

describe("catalog-served reads", () => {
  it("answers from the live venue until the catalog has the venue, then from the catalog in pmxt's shape", async () => {
    const { key } = await makeKey("enterprise");
    const before = await post(key, "mock", "fetchEvent", { args: [{ eventId: "mock-event-1" }] });
    expect(before.headers.get("x-brier-source")).toBe("live");
    const live = before.body.data as { id: string; markets: { marketId: string }[] };

    await pollVenue(await getDb(), "mock");

    const served = await post(key, "mock", "fetchEvent", { args: [{ eventId: "mock-event-1" }] });
    expect(served.status, served.text).toBe(200);
    expect(served.headers.get("x-brier-source")).toBe("catalog");
    const event = served.body.data as { id: string; sourceExchange: string; markets: { marketId: string; eventId: string; outcomes: { marketId: string }[] }[] };
    expect(event.id).toBe(live.id);
    expect(event.sourceExchange).toBe("mock");
    expect(event.markets.map((m) => m.marketId).sort()).toEqual(live.markets.map((m) => m.marketId).sort());
    expect(event.markets[0]?.eventId).toBe("mock-event-1");
    expect(event.markets[0]?.outcomes[0]?.marketId).toBe(event.markets[0]?.marketId);

    const market = await post(key, "mock", "fetchMarket", { args: [{ marketId: "mock-m4" }] });
    expect(market.headers.get("x-brier-source")).toBe("catalog");
    expect((market.body.data as { marketId: string; eventId: string }).marketId).toBe("mock-m4");

    const page = await post(key, "mock", "fetchMarkets", { args: [{ limit: 5 }] });
    expect(page.headers.get("x-brier-source")).toBe("catalog");
    expect(page.body.data).toHaveLength(5);
  });

  it("goes live for parameters the catalog cannot answer, and for a miss", async () => {
    const { key } = await makeKey("enterprise");
    await pollVenue(await getDb(), "mock");
    const unbounded = await post(key, "mock", "fetchMarkets", { args: [] });
    expect(unbounded.headers.get("x-brier-source")).toBe("live");
    const byEvent = await post(key, "mock", "fetchMarkets", { args: [{ eventId: "mock-event-2", limit: 5 }] });
    expect(byEvent.headers.get("x-brier-source")).toBe("live");
    const missing = await post(key, "mock", "fetchMarket", { args: [{ marketId: "nope" }] });
    expect(missing.status).toBe(404);
    expect(missing.body.error?.code).toBe("MARKET_NOT_FOUND");
  });
});
