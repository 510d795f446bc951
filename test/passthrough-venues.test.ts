import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createFakeVenues, FIXTURE_IDS, CLOB_HOST, GAMMA_HOST } from "./fakes/venue-server";
import { callRoute } from "./helpers/routes";

// Polymarket and Kalshi through the pass-through, their HTTP redirected to the loopback fake
// (VENUE_REDIRECT_URL, set before config is read).
const fake = createFakeVenues();
await fake.listen();
process.env.VENUE_REDIRECT_URL = fake.url;
process.env.VENUE_TIMEOUT_MS = "1500";
// Dynamic imports: lib/config must not be read before the two variables above are set.
const { GET, POST } = await import("@/app/api/[exchange]/[method]/route");
const { makeKey } = await import("./helpers/keys");

afterAll(() => fake.close());
beforeEach(() => fake.reset());

type Params = { exchange: string; method: string };
type Envelope = { success: boolean; data?: unknown; error?: { code: string; message: string; retryable: boolean; exchange?: string } };

async function post(key: string, exchange: string, method: string, body: unknown) {
  const res = await callRoute<Params>(POST, { path: `/api/${exchange}/${method}`, key, body, params: { exchange, method } });
  return { ...res, body: res.body as Envelope };
}

const yes = FIXTURE_IDS.M1?.yes ?? "";

describe("Polymarket through the pass-through", () => {
  it("reads events, markets, the order book and candles from the venue's wire format", async () => {
    const { key } = await makeKey("enterprise");
    const events = await post(key, "polymarket", "fetchEvents", { args: [] });
    expect(events.status, events.text).toBe(200);
    expect((events.body.data as { id: string }[]).map((e) => e.id).sort()).toEqual(["41873", "52610", "60117"]);

    const limited = await post(key, "polymarket", "fetchMarkets", { args: [{ limit: 2 }] });
    expect(limited.body.data).toHaveLength(2);

    const book = await callRoute<Params>(GET, {
      path: `/api/polymarket/fetchOrderBook?outcomeId=${yes}`,
      key,
      params: { exchange: "polymarket", method: "fetchOrderBook" },
    });
    expect(book.status, book.text).toBe(200);
    const data = (book.body as Envelope).data as { bids: { price: number }[]; asks: { price: number }[] };
    expect(data.bids[0]?.price).toBeGreaterThan(0);
    expect(data.asks[0]?.price).toBeGreaterThan(data.bids[0]?.price ?? 1);
    expect(fake.requestsTo(`${CLOB_HOST}/book`)[0]?.query.token_id).toBe(yes);

    const candles = await post(key, "polymarket", "fetchOHLCV", { args: [yes, { resolution: "1h", limit: 24 }] });
    expect(candles.status, candles.text).toBe(200);
    expect(Array.isArray(candles.body.data)).toBe(true);
  });

  it("maps venue failures to pmxt's codes, never leaking internals", async () => {
    const { key } = await makeKey("enterprise");
    const unknown = await post(key, "polymarket", "fetchOrderBook", { args: [`${yes.slice(0, -3)}000`] });
    expect(unknown.status, unknown.text).toBe(404);
    expect(unknown.body.error?.code).toMatch(/NOT_FOUND/);

    fake.fail(`${GAMMA_HOST}/events`, { kind: "status", status: 503 });
    const down = await post(key, "polymarket", "fetchEvents", { args: [] });
    expect(down.status).toBe(503);
    expect(down.body.error).toMatchObject({ code: "EXCHANGE_NOT_AVAILABLE", retryable: true });

    fake.heal();
    fake.fail(`${GAMMA_HOST}/events`, { kind: "hang" });
    const slow = await post(key, "polymarket", "fetchEvents", { args: [] });
    expect(slow.status, slow.text).toBe(503);
    expect(slow.body.error).toMatchObject({ code: "NETWORK_ERROR", retryable: true });

    fake.heal();
    fake.fail(`${GAMMA_HOST}/events`, { kind: "reset" });
    const reset = await post(key, "polymarket", "fetchEvents", { args: [] });
    expect(reset.status).toBeGreaterThanOrEqual(500);
    expect(reset.body.error?.retryable).toBe(true);

    fake.heal();
    fake.fail(`${GAMMA_HOST}/events`, { kind: "garbage" });
    const garbage = await post(key, "polymarket", "fetchEvents", { args: [] });
    expect(garbage.status).toBeGreaterThanOrEqual(400);
    for (const res of [down, slow, reset, garbage]) expect(res.text).not.toMatch(/TypeError|\.js:\d+|127\.0\.0\.1/);
  });
});

describe("Kalshi through the pass-through", () => {
  it("reads events and markets", async () => {
    const { key } = await makeKey("enterprise");
    const events = await post(key, "kalshi", "fetchEvents", { args: [] });
    expect(events.status, events.text).toBe(200);
    expect((events.body.data as { id: string }[]).map((e) => e.id).sort()).toEqual(["KXFEDDECISION-27MAR", "KXHIGHNY-27JUN15"]);
    const markets = await post(key, "kalshi", "fetchMarkets", { args: [] });
    expect((markets.body.data as { marketId: string }[]).map((m) => m.marketId)).toContain("KXFEDDECISION-27MAR-H0");
  });

  it("uses the caller's credentials on their own instance for the signed order book; without them a public read answers 503 naming the venue, never 401", async () => {
    const { key } = await makeKey("enterprise");
    const anonymous = await post(key, "kalshi", "fetchOrderBook", { args: ["KXFEDDECISION-27MAR-H0"] });
    expect(anonymous.status, anonymous.text).toBe(503);
    expect(anonymous.body.error?.code).toBe("EXCHANGE_NOT_AVAILABLE");
    expect(anonymous.text).toContain("kalshi");

    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const signed = await post(key, "kalshi", "fetchOrderBook", {
      args: ["KXFEDDECISION-27MAR-H0"],
      credentials: { apiKey: "test-key-id", privateKey: pem },
    });
    expect(signed.status, signed.text).toBe(200);
    expect((signed.body.data as { bids: unknown[] }).bids.length).toBeGreaterThan(0);
    const sent = fake.requestsTo("api.elections.kalshi.com").find((r) => r.path.includes("/orderbook"));
    expect(sent?.headers["kalshi-access-key"]).toBe("test-key-id");
    expect(signed.text).not.toContain("PRIVATE KEY");
  });
});
