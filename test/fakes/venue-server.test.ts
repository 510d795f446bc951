import type { PredictionMarketExchange } from "pmxt-core/dist/BaseExchange";
import { KalshiExchange } from "pmxt-core/dist/exchanges/kalshi";
import { PolymarketExchange } from "pmxt-core/dist/exchanges/polymarket";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFakeVenues, FIXTURE_IDS, GAMMA_HOST } from "./venue-server";

// The fake's own test: the real pmxt-core fetchers against it, each request redirected to the fake's loopback host.
const fake = createFakeVenues();

function redirect<T extends PredictionMarketExchange>(exchange: T): T {
  exchange.http.interceptors.request.use((c) => {
    const u = new URL(c.url ?? "", c.baseURL);
    if (u.origin !== new URL(fake.url).origin) {
      c.url = `${fake.url}/${u.host}${u.pathname}${u.search}`;
      c.baseURL = undefined;
    }
    return c;
  });
  exchange.enableRateLimit = false;
  return exchange;
}

beforeAll(async () => {
  await fake.listen();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

describe("fake venue server", () => {
  it("serves Polymarket Gamma events that pmxt-core normalizes with CLOB token ids", async () => {
    const pm = redirect(new PolymarketExchange());
    const events = await pm.fetchEvents();
    expect(events.map((e) => e.id).sort()).toEqual(["41873", "52610", "60117"]);
    const markets = events.flatMap((e) => e.markets);
    expect(markets).toHaveLength(5);
    const fed = markets.find((m) => m.contractAddress === FIXTURE_IDS.M1?.cond);
    expect(fed?.outcomes[0]?.outcomeId).toBe(FIXTURE_IDS.M1?.yes);
    expect(fed?.outcomes[0]?.label).toBe("No change");
    const call = fake.requestsTo(`${GAMMA_HOST}/events`)[0];
    expect(call?.query).toMatchObject({ active: "true", closed: "false", limit: "500", offset: "0" });
  });

  it("serves the CLOB book and answers 404 for an unknown token", async () => {
    const pm = redirect(new PolymarketExchange());
    const book = await pm.fetchOrderBook(FIXTURE_IDS.M1?.yes ?? "");
    expect(book.bids.length).toBeGreaterThan(0);
    await expect(pm.fetchOrderBook("123")).rejects.toThrow();
  });

  it("pages Kalshi events by cursor and copies series tags", async () => {
    fake.data.kalshiPageSize = 1;
    const kalshi = redirect(new KalshiExchange());
    const events = await kalshi.fetchEvents();
    expect(events).toHaveLength(2);
    const calls = fake.requestsTo("api.elections.kalshi.com/trade-api/v2/events");
    expect(calls.length).toBe(2);
    expect(calls[1]?.query.cursor).toBeTruthy();
    const markets = await kalshi.fetchMarkets();
    expect(markets.map((m) => m.marketId)).toContain("KXFEDDECISION-27MAR-H0");
  });

  it.each([
    [{ kind: "status", status: 500 } as const],
    [{ kind: "garbage" } as const],
    [{ kind: "reset" } as const],
  ])("fails on demand (%j) and heals", async (mode) => {
    fake.fail(GAMMA_HOST, mode, 1);
    const res = await fetch(`${fake.url}/${GAMMA_HOST}/events`).then(
      async (r) => ({ status: r.status, text: await r.text() }),
      () => ({ status: 0, text: "" }),
    );
    expect(() => {
      if (res.status !== 200) throw new Error(String(res.status));
      JSON.parse(res.text);
    }).toThrow();
    const again = await fetch(`${fake.url}/${GAMMA_HOST}/events`).then((r) => r.json());
    expect(Array.isArray(again)).toBe(true);
  });

  it("hangs on demand until the client gives up", async () => {
    fake.fail(`${GAMMA_HOST}/events`, { kind: "hang" });
    const controller = AbortSignal.timeout(200);
    await expect(fetch(`${fake.url}/${GAMMA_HOST}/events`, { signal: controller })).rejects.toThrow();
  });

  it("accepts the X-Upstream-Host header and absolute-form targets", async () => {
    const viaHeader = await fetch(`${fake.url}/trade-api/v2/series`, {
      headers: { "x-upstream-host": "api.elections.kalshi.com" },
    }).then((r) => r.json() as Promise<{ series: unknown[] }>);
    expect(viaHeader.series).toHaveLength(2);
    expect(fake.requests.at(-1)?.host).toBe("api.elections.kalshi.com");
  });
});
