import { describe, expect, it } from "vitest";
import { GET, POST } from "@/app/api/[exchange]/[method]/route";
import { getVenueRegistry } from "@/lib/venues/registry";
import { describeKeyedRoute } from "./helpers/auth-suite";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

type Params = { exchange: string; method: string };
type Envelope = { success: boolean; data?: unknown; error?: { code: string; message: string; retryable: boolean; exchange?: string } };

async function post(key: string, exchange: string, method: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await callRoute<Params>(POST, { path: `/api/${exchange}/${method}`, key, body, params: { exchange, method }, headers });
  return { ...res, body: res.body as Envelope };
}

async function get(key: string, exchange: string, method: string, query = "") {
  const res = await callRoute<Params>(GET, { path: `/api/${exchange}/${method}${query}`, key, params: { exchange, method } });
  return { ...res, body: res.body as Envelope };
}

describeKeyedRoute<Params>({
  name: "POST /api/:exchange/:method",
  handler: POST,
  request: { path: "/api/mock/fetchMarkets", method: "POST", body: { args: [{ limit: 2 }] }, params: { exchange: "mock", method: "fetchMarkets" } },
  surface: "api",
});

describeKeyedRoute<Params>({
  name: "GET /api/:exchange/:method",
  handler: GET,
  request: { path: "/api/mock/fetchOrderBook?outcomeId=mock-m1-yes", params: { exchange: "mock", method: "fetchOrderBook" } },
  surface: "api",
});

describe("pass-through on the mock venue", () => {
  it("answers pmxt's envelope for POST and GET, with X-Brier-Source", async () => {
    const { key } = await makeKey("enterprise");
    const markets = await post(key, "mock", "fetchMarkets", { args: [{ limit: 3 }] });
    expect(markets.status).toBe(200);
    expect(markets.body.success).toBe(true);
    expect(markets.body.data).toHaveLength(3);
    expect(markets.headers.get("x-brier-source")).toBe("live");

    const book = await get(key, "mock", "fetchOrderBook", "?outcomeId=mock-m1-yes");
    expect(book.status).toBe(200);
    expect((book.body.data as { bids: unknown[] }).bids.length).toBeGreaterThan(0);

    const viaGet = await get(key, "mock", "fetchMarkets", "?limit=2&offset=1");
    expect((viaGet.body.data as { marketId: string }[]).map((m) => m.marketId)).toEqual(["mock-m1", "mock-m2"]);
  });

  it("accepts the `id` that pmxtjs sends for fetchOHLCV and fetchTrades over GET", async () => {
    const { key } = await makeKey("enterprise");
    const candles = await get(key, "mock", "fetchOHLCV", "?id=mock-m1-yes&resolution=1h&limit=5");
    expect(candles.status).toBe(200);
    expect(candles.body.data).toHaveLength(5);
    const trades = await get(key, "mock", "fetchTrades", "?id=mock-m1-yes&limit=5");
    expect(trades.status).toBe(200);
    expect((trades.body.data as { outcomeId: string }[])[0]?.outcomeId).toBe("mock-m1-yes");
  });

  it("turns ISO dates into the Dates pmxt-core expects", async () => {
    const { key } = await makeKey("enterprise");
    const end = "2026-01-02T00:00:00.000Z";
    const res = await post(key, "mock", "fetchOHLCV", { args: ["mock-m1-yes", { resolution: "1h", end, limit: 3 }] });
    expect(res.status).toBe(200);
    const candles = res.body.data as { timestamp: number }[];
    expect(candles[candles.length - 1]?.timestamp).toBeLessThanOrEqual(Date.parse(end));
  });

  it("maps pmxt-core errors to their status and code", async () => {
    const { key } = await makeKey("enterprise");
    const missing = await post(key, "mock", "fetchMarket", { args: [{ marketId: "no-such-market" }] });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: "MARKET_NOT_FOUND", retryable: false });
    const event = await get(key, "mock", "fetchEvent", "?eventId=nope");
    expect(event.status).toBe(404);
    expect(event.body.error?.code).toBe("EVENT_NOT_FOUND");
    const order = await post(key, "mock", "cancelOrder", { args: ["mock-order-999"] });
    expect(order.status).toBe(404);
    expect(order.body.error?.code).toBe("NOT_FOUND");
  });

  it("answers 404 for unknown exchanges and methods, 405 for GET on a write, 501 for unsupported", async () => {
    const { key } = await makeKey("enterprise");
    expect((await post(key, "nasdaq", "fetchMarkets", { args: [] })).status).toBe(404);
    const unknown = await post(key, "mock", "fetchEverything", { args: [] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.code).toBe("NOT_FOUND");
    const write = await get(key, "mock", "createOrder");
    expect(write.status).toBe(405);
    const watch = await post(key, "mock", "watchOrderBook", { args: ["mock-m1-yes"] });
    expect(watch.status).toBe(501);
    expect(watch.body.error).toMatchObject({ code: "NOT_SUPPORTED", exchange: "mock" });
    expect(watch.body.error?.message).toMatch(/watchOrderBook.*mock/);
  });

  it("routes every method of pmxt-core's interface description", async () => {
    const { key } = await makeKey("enterprise");
    for (const name of getVenueRegistry().methods.keys()) {
      const res = await post(key, "mock", name, { args: [] });
      // Routed means: reached validation or the venue, never "no such method".
      expect([200, 400, 404, 501], `${name}: ${res.text}`).toContain(res.status);
      if (res.status === 404) expect(res.body.error?.message, name).not.toMatch(/No method matches/);
      if (res.status === 500) throw new Error(`${name}: ${res.text}`);
    }
  });
});

describe("hostile input gets a clean 4xx", () => {
  const deep = (levels: number): unknown => (levels === 0 ? "x" : { a: deep(levels - 1) });

  it.each([
    ["the object's constructor", "mock", "constructor", { args: [] }, 404],
    ["__proto__ as method", "mock", "__proto__", { args: [] }, 404],
    ["toString as method", "mock", "toString", { args: [] }, 404],
    ["an internal helper", "mock", "callApi", { args: ["getBook", {}] }, 404],
    ["the mock's reset", "mock", "reset", { args: [] }, 404],
    ["a prototype exchange", "__proto__", "fetchMarkets", { args: [] }, 404],
    ["args not an array", "mock", "fetchMarkets", { args: { limit: 2 } }, 400],
    ["body an array", "mock", "fetchMarkets", [1, 2], 400],
    ["body a string", "mock", "fetchMarkets", JSON.stringify("hi"), 400],
    ["too many args", "mock", "fetchOrderBook", { args: ["a", "yes", 3, 4] }, 400],
    ["missing required arg", "mock", "fetchOHLCV", { args: ["mock-m1-yes"] }, 400],
    ["wrong type", "mock", "fetchMarkets", { args: [{ limit: "20" }] }, 400],
    ["enum violation", "mock", "createOrder", { args: [{ marketId: "m", outcomeId: "o", side: "hold", type: "limit", amount: 1 }] }, 400],
    ["number where string", "mock", "fetchOrderBook", { args: [12345] }, 400],
    ["__proto__ key", "mock", "fetchMarkets", JSON.parse('{"args":[{"__proto__":{"polluted":true}}]}') as unknown, 400],
    ["constructor key", "mock", "fetchMarkets", { args: [{ constructor: { prototype: { x: 1 } } }] }, 400],
    ["huge array", "mock", "filterMarkets", { args: [Array.from({ length: 6000 }, () => ({})), "x"] }, 400],
    ["deeply nested object", "mock", "fetchMarkets", { args: [deep(40)] }, 400],
    ["credentials of the wrong type", "polymarket", "fetchBalance", { args: [], credentials: { privateKey: 42 } }, 400],
    ["invalid JSON", "mock", "fetchMarkets", "{not json", 400],
  ])("%s", async (_label, exchange, method, body, status) => {
    const { key } = await makeKey("enterprise");
    const res = await post(key, exchange, method, body);
    expect(res.status, res.text).toBe(status);
    expect(res.body.success).toBe(false);
    expect(typeof res.body.error?.code).toBe("string");
    expect(res.text).not.toMatch(/at .*\.(js|ts):\d+|TypeError|ReferenceError/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("names the path of the first bad argument", async () => {
    const { key } = await makeKey("enterprise");
    const res = await post(key, "mock", "fetchMarkets", { args: [{ limit: 5, offset: "ten" }] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(res.body.error?.message).toContain("args[0].offset");
  });

  it("refuses a body over 1 MiB with 413", async () => {
    const { key } = await makeKey("enterprise");
    const res = await post(key, "mock", "fetchMarkets", { args: [{ query: "x".repeat(1_100_000) }] });
    expect(res.status).toBe(413);
  });
});

describe("tenants", () => {
  const order = { marketId: "mock-m1", outcomeId: "mock-m1-yes", side: "buy", type: "market", amount: 10 };

  it("keeps each key's mock account (orders, positions, balance) to itself", async () => {
    const alice = await makeKey("enterprise");
    const bob = await makeKey("enterprise");
    const placed = await post(alice.key, "mock", "createOrder", { args: [order] });
    expect(placed.status, placed.text).toBe(200);
    const aliceBalance = (await post(alice.key, "mock", "fetchBalance", { args: [] })).body.data as { available: number }[];
    const bobBalance = (await post(bob.key, "mock", "fetchBalance", { args: [] })).body.data as { available: number }[];
    expect(aliceBalance[0]?.available).toBeLessThan(1000);
    expect(bobBalance[0]?.available).toBe(1000);
    expect((await post(alice.key, "mock", "fetchPositions", { args: [] })).body.data).toHaveLength(1);
    expect((await post(bob.key, "mock", "fetchPositions", { args: [] })).body.data).toHaveLength(0);
    const orderId = (placed.body.data as { id: string }).id;
    const bobLooks = await post(bob.key, "mock", "fetchOrder", { args: [orderId] });
    expect(bobLooks.status).toBe(404);
  });

  it("a caller's close leaves every other caller working", async () => {
    const alice = await makeKey("enterprise");
    const bob = await makeKey("enterprise");
    await post(alice.key, "mock", "createOrder", { args: [order] });
    expect((await post(bob.key, "mock", "close", { args: [] })).status).toBe(200);
    expect((await post(bob.key, "polymarket", "close", { args: [] })).status).toBe(200);
    expect((await post(alice.key, "mock", "fetchPositions", { args: [] })).body.data).toHaveLength(1);
    expect((await post(alice.key, "mock", "fetchMarkets", { args: [{ limit: 1 }] })).status).toBe(200);
  });

  it("caps the venue calls one key has in flight (429), without touching other keys", async () => {
    const greedy = await makeKey("enterprise");
    const other = await makeKey("enterprise");
    // The burst below must arrive at once. On PostgreSQL every request reads the key and takes its
    // lease over the database pool, and opening a pool connection can cost more than the venue
    // call itself (seen on a CI machine: 60 ms for one, 220 ms for nine at once), so requests that wait for a new
    // connection would arrive after the first ones finished. Open the pool's connections first,
    // with another key, so the burst measures the cap and not connection set-up.
    await Promise.all(Array.from({ length: 12 }, () => post(other.key, "mock", "fetchBalance", { args: [] })));
    // createOrder on mock takes ~100 ms: nine at once exceed the default cap of eight.
    const burst = await Promise.all(Array.from({ length: 12 }, () => post(greedy.key, "mock", "createOrder", { args: [order] })));
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBe(8);
    expect(statuses.filter((s) => s === 429).length).toBe(4);
    expect(burst.find((r) => r.status === 429)?.body.error?.code).toBe("RATE_LIMIT_EXCEEDED");
    expect((await post(other.key, "mock", "fetchBalance", { args: [] })).status).toBe(200);
    expect((await post(greedy.key, "mock", "fetchBalance", { args: [] })).status).toBe(200);
  });

  it("never echoes credentials", async () => {
    const { key } = await makeKey("enterprise");
    const secret = "0xsupersecretprivatekeyvalue";
    const res = await post(key, "kalshi", "fetchBalance", { args: [], credentials: { apiKey: "k-id", privateKey: secret } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.text).not.toContain(secret);
  });
});
