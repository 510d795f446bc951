import { Exchange, MarketNotFound, EventNotFound, AuthenticationError, NotFoundError, PmxtError, ValidationError } from "pmxtjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET, POST } from "@/app/api/[exchange]/[method]/route";
import { makeKey } from "./helpers/keys";

/**
 * The official SDK, unchanged, against Brier's route handlers. pmxtjs calls the global `fetch`;
 * requests to the two base URLs below are answered in-process by the exported handlers, exactly
 * as `next start` would route them. `http://localhost:3847` is pmxtjs's "local" URL: pmxtjs
 * refuses createOrder/buildOrder client-side in hosted mode, so the write path uses it (with the
 * same Bearer key); everything else runs in hosted mode.
 */
/** pmxtjs ships no `Mock` class; its abstract Exchange takes any exchange name (what `new pmxt.Exchange("mock", …)` does at runtime). */
class MockVenue extends Exchange {
  constructor(options: ConstructorParameters<typeof Exchange>[1]) {
    super("mock", options);
  }
}

const HOSTED = "http://brier.test";
const LOCAL = "http://localhost:3847";
const realFetch = globalThis.fetch;
const seen: { method: string; path: string }[] = [];

beforeAll(() => {
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === "string" || input instanceof URL ? input.toString() : input.url);
    if (url.origin !== HOSTED && url.origin !== LOCAL) return realFetch(input, init);
    const match = /^\/api\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (match?.[1] === undefined || match[2] === undefined) return new Response("not found", { status: 404 });
    const request = new Request(url, init);
    seen.push({ method: request.method, path: `${url.pathname}${url.search}` });
    const handler = request.method === "GET" ? GET : POST;
    return handler(request, { params: Promise.resolve({ exchange: decodeURIComponent(match[1]), method: decodeURIComponent(match[2]) }) });
  };
});

afterAll(() => {
  globalThis.fetch = realFetch;
});

describe("pmxtjs 2.41 in hosted mode against Brier", () => {
  it("runs every read method on mock", async () => {
    const { key } = await makeKey("enterprise");
    const mock = new MockVenue({ pmxtApiKey: key, baseUrl: HOSTED, autoStartServer: false });

    const markets = await mock.fetchMarkets({ limit: 5 });
    expect(markets).toHaveLength(5);
    const market = markets[1];
    if (market === undefined) throw new Error("no market");
    expect(market.outcomes.length).toBeGreaterThan(1);

    const events = await mock.fetchEvents({ limit: 2 });
    expect(events).toHaveLength(2);
    expect(events[0]?.markets.length).toBeGreaterThan(0);

    expect((await mock.fetchMarket({ marketId: market.marketId })).marketId).toBe(market.marketId);
    expect((await mock.fetchEvent({ eventId: events[0]?.id })).id).toBe(events[0]?.id);

    const outcomeId = market.outcomes[0]?.outcomeId ?? "";
    const book = await mock.fetchOrderBook(outcomeId);
    expect(book.bids.length).toBeGreaterThan(0);
    expect(book.asks.length).toBeGreaterThan(0);

    const candles = await mock.fetchOHLCV(outcomeId, { resolution: "1h", limit: 10 });
    expect(candles).toHaveLength(10);
    expect(candles[0]?.open).toBeGreaterThan(0);

    const trades = await mock.fetchTrades(outcomeId, { limit: 10 });
    expect(trades.length).toBeGreaterThan(0);
    expect(trades[0]?.price).toBeGreaterThan(0);

    // The reads went over GET (what pmxtjs prefers), including the `id` alias for OHLCV and trades.
    expect(seen.some((r) => r.method === "GET" && r.path.startsWith("/api/mock/fetchOHLCV?id="))).toBe(true);
    expect(seen.some((r) => r.method === "GET" && r.path.startsWith("/api/mock/fetchTrades?id="))).toBe(true);
  });

  it("raises pmxt's error classes", async () => {
    const { key } = await makeKey("enterprise");
    const mock = new MockVenue({ pmxtApiKey: key, baseUrl: HOSTED, autoStartServer: false });
    await expect(mock.fetchMarket({ marketId: "no-such-market" })).rejects.toBeInstanceOf(MarketNotFound);
    await expect(mock.fetchEvent({ eventId: "no-such-event" })).rejects.toBeInstanceOf(EventNotFound);
    await expect(mock.fetchOrder("mock-order-404")).rejects.toBeInstanceOf(NotFoundError);
    await expect(mock.fetchOHLCV("mock-m1-yes", {} as { resolution: string })).rejects.toBeInstanceOf(ValidationError);
    const unsupported = mock.watchOrderBook("mock-m1-yes");
    await expect(unsupported).rejects.toBeInstanceOf(PmxtError);
    await expect(unsupported).rejects.toMatchObject({ code: "NOT_SUPPORTED" });
  });

  it("raises an AuthenticationError for a wrong key", async () => {
    const wrong = new MockVenue({
      pmxtApiKey: "brier_live_0000000000000000000000000000000000000000000",
      baseUrl: HOSTED,
      autoStartServer: false,
    });
    await expect(wrong.fetchMarkets({ limit: 1 })).rejects.toBeInstanceOf(AuthenticationError);
    await expect(wrong.fetchOrderBook("mock-m1-yes")).rejects.toBeInstanceOf(AuthenticationError);
  });
});

describe("pmxtjs 2.41 account and write methods on mock", () => {
  it("creates, lists and cancels orders, with balance and positions per key", async () => {
    const { key } = await makeKey("enterprise");
    const other = await makeKey("enterprise");
    const mock = new MockVenue({ pmxtApiKey: key, baseUrl: LOCAL, autoStartServer: false });
    const otherMock = new MockVenue({ pmxtApiKey: other.key, baseUrl: LOCAL, autoStartServer: false });

    const order = await mock.createOrder({ marketId: "mock-m1", outcomeId: "mock-m1-yes", side: "buy", type: "market", amount: 10 });
    expect(order.status).toBe("filled");
    expect(order.amount).toBe(10);

    const [balance] = await mock.fetchBalance();
    expect(balance?.available).toBeLessThan(1000);
    const positions = await mock.fetchPositions();
    expect(positions).toHaveLength(1);
    expect(positions[0]?.outcomeId).toBe("mock-m1-yes");
    expect(await mock.fetchOpenOrders()).toEqual([]);
    await expect(mock.cancelOrder(order.id)).rejects.toBeInstanceOf(PmxtError); // filled orders cannot be cancelled

    expect(await otherMock.fetchPositions()).toEqual([]);
    expect((await otherMock.fetchBalance())[0]?.available).toBe(1000);
    await expect(otherMock.fetchOrder(order.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
