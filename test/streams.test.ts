import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import path from "node:path";
import type * as Pmxt from "pmxtjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { revokeApiKey } from "@/lib/auth/api-keys";
import { getAuthSecret } from "@/lib/auth/secret";
import { flushUsage } from "@/lib/auth/usage";
import { getDb } from "@/lib/db";
import { usage } from "@/lib/db/schema";
import { TOO_DEEP_MESSAGE } from "@/lib/json";
import { passthroughPool } from "@/lib/passthrough";
import { Recorder } from "@/lib/recorder/polymarket/recorder";
import { InProcessBus, type BookMessage } from "@/lib/live/bus";
import { StreamHub, type HubLimits } from "@/lib/streams/hub";
import { LivePublisher } from "@/lib/live/publisher";
import { createStreamServer, type StreamServer } from "@/lib/streams/ws-server";
import { getTickStores } from "@/lib/ticks";
import { ResolutionSink } from "@/lib/outcomes/sink";
import { startFakeMarketChannel, type FakeMarketChannel } from "./fakes/market-channel";
import { makeKey } from "./helpers/keys";
import { StreamClient, type ServerMessage } from "./helpers/stream-client";
import { resolutionRecord } from "./helpers/resolutions";

/**
 * /ws end to end on one process: the recorder fed by the loopback market channel publishes into
 * the in-process bus; the stream server is mounted on a plain node:http server that answers every
 * HTTP request 404, so anything pmxtjs gets here came over the socket (no HTTP fallback exists).
 */

const ids = JSON.parse(readFileSync(path.resolve(__dirname, "fixtures/venues/IDS.json"), "utf8")) as {
  M1: { cond: string; yes: string; no: string };
  M2: { cond: string; yes: string; no: string };
  M3: { cond: string; yes: string; no: string };
};
/*
 * pmxtjs's CommonJS build: its ESM build looks the `ws` package up with `require`, which ESM does
 * not have, so on Node 20 (no global WebSocket) only CommonJS callers get the socket transport.
 */
const { Exchange, PmxtError } = createRequire(import.meta.url)("pmxtjs") as typeof Pmxt;
const A1 = ids.M1.yes;
const B1 = ids.M2.yes;
const recorded = [ids.M1.yes, ids.M1.no, ids.M2.yes, ids.M2.no];

class Polymarket extends Exchange {
  constructor(options: ConstructorParameters<typeof Exchange>[1]) {
    super("polymarket", options);
  }
}

const limits: HubLimits = {
  subscriptions: { free: 5, pro: 100, enterprise: 1000 },
  connectionsPerKey: 3,
  bufferBytes: 256 * 1024,
  maxPending: 10_000,
  slowConsumerMs: 400,
};

let fake: FakeMarketChannel;
let recorder: Recorder;
let bus: InProcessBus;
let hub: StreamHub;
let streams: StreamServer;
let server: Server;
let base: string;
let wsBase: string;
const httpHits: string[] = [];

/** pmxt-core's Polymarket watcher connects to the loopback fake (its URL is a constant of poly-websockets, so the `ws` module poly-websockets loads is redirected). */
function redirectPolyWebsockets(url: string): void {
  const require = createRequire(import.meta.url);
  const wsPath = createRequire(require.resolve("@nevuamarkets/poly-websockets")).resolve("ws");
  const original = require(wsPath) as new (address: string, ...rest: unknown[]) => object;
  class Redirected extends original {
    constructor(address: string, ...rest: unknown[]) {
      super(address.startsWith("wss://ws-subscriptions-clob.polymarket.com") ? url : address, ...rest);
    }
  }
  const cached = require.cache[wsPath];
  if (cached === undefined) throw new Error("ws is not loaded");
  cached.exports = Redirected;
}

function priceChange(assetId: string, market: string, price: string, size: string, side: "BUY" | "SELL", bestBid: string, bestAsk: string, ts: number): string {
  return JSON.stringify({
    market,
    event_type: "price_change",
    timestamp: String(ts),
    price_changes: [{ asset_id: assetId, price, size, side, hash: "h", best_bid: bestBid, best_ask: bestAsk }],
  });
}

/** Closes pmxtjs's socket (its close() is an HTTP call, which this server does not answer). */
function closeSocket(exchange: object): void {
  (exchange as { _wsClient?: { close(): void } | null })._wsClient?.close();
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  fake = await startFakeMarketChannel();
  redirectPolyWebsockets(fake.url);
  const stores = await getTickStores();
  bus = new InProcessBus();
  recorder = new Recorder({
    writer: stores.writer,
    wsUrl: fake.url,
    assets: async () => recorded,
    maxAssets: 2000,
    pingIntervalMs: 1000,
    minBackoffMs: 20,
    writerOptions: { flushIntervalMs: 50 },
    live: new LivePublisher(bus),
  });
  await recorder.start();
  await fake.replays(1);
  await until(() => recorder.books.get(A1)?.hasSnapshot === true && recorder.books.get(B1)?.hasSnapshot === true);
  hub = new StreamHub({ bus, limits });
  streams = createStreamServer({ hub: async () => hub, keyRecheckMs: 200 });
  server = createServer((req, res) => {
    httpHits.push(`${req.method} ${req.url}`);
    res.writeHead(404).end();
  });
  server.on("upgrade", streams.upgrade);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  wsBase = `ws://127.0.0.1:${port}/ws`;
});

afterAll(async () => {
  await streams?.close();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await recorder?.stop();
  await passthroughPool().closeAll();
  await fake?.close();
});

describe("pmxtjs 2.41 in hosted mode over /ws", () => {
  it("watchOrderBook: the current book first, then every update, over the socket", async () => {
    const { key } = await makeKey("pro");
    const poly = new Polymarket({ pmxtApiKey: key, baseUrl: base, autoStartServer: false });
    const first = await poly.watchOrderBook(A1);
    expect(first.bids[0]).toEqual({ price: 0.61, size: expect.any(Number) as number });
    expect(first.asks[0]?.price).toBe(0.63);
    expect(first.bids.map((l) => l.price)).toEqual([...first.bids.map((l) => l.price)].sort((a, b) => b - a));

    fake.broadcast(priceChange(A1, ids.M1.cond, "0.62", "500", "BUY", "0.62", "0.63", Date.now()));
    // pmxtjs hands back the latest book it holds on each call (CCXT Pro style): call until the update shows.
    let updated = await poly.watchOrderBook(A1);
    for (let i = 0; i < 5 && updated.bids[0]?.price !== 0.62; i += 1) updated = await poly.watchOrderBook(A1);
    expect(updated.bids[0]).toEqual({ price: 0.62, size: 500 });
    expect(updated.asks[0]?.price).toBe(0.63);
    expect(httpHits).toEqual([]);
    closeSocket(poly);
  });

  it("watchOrderBooks: one book per outcome, in one subscription", async () => {
    const { key } = await makeKey("pro");
    const poly = new Polymarket({ pmxtApiKey: key, baseUrl: base, autoStartServer: false });
    const books = await poly.watchOrderBooks([A1, B1]);
    expect(Object.keys(books).sort()).toEqual([A1, B1].sort());
    expect(books[B1]?.bids[0]?.price).toBe(0.033);
    expect(books[B1]?.asks[0]?.price).toBe(0.039);
    expect(httpHits).toEqual([]);
    closeSocket(poly);
  });

  it("watchTrades through pmxtjs's socket client: each last_trade_price as pmxt trades", async () => {
    const { key } = await makeKey("pro");
    const poly = new Polymarket({ pmxtApiKey: key, baseUrl: base, autoStartServer: false });
    // pmxtjs 2.41's watchTrades() long-polls over HTTP; its socket path (the one watchOrderBook uses) carries the same call.
    const viaSocket = poly as unknown as { watchViaWs(method: string, args: unknown[]): Promise<unknown> };
    const trades = viaSocket.watchViaWs("watchTrades", [A1]);
    await until(() => [...hub.sessions].some((s) => [...s.subscriptions.keys()].some((k) => k.includes("watchTrades"))));
    fake.broadcast(
      JSON.stringify({ market: ids.M1.cond, asset_id: A1, event_type: "last_trade_price", price: "0.62", size: "25", side: "BUY", fee_rate_bps: "0", timestamp: String(Date.now()), transaction_hash: "0xabc" }),
    );
    expect(await trades).toEqual([{ id: "0xabc", timestamp: expect.any(Number) as number, price: 0.62, amount: 25, side: "buy" }]);
    expect(httpHits).toEqual([]);
    closeSocket(poly);
  });

  it("firehose(): every book update with its venue and outcome", async () => {
    const { key } = await makeKey("pro");
    const poly = new Polymarket({ pmxtApiKey: key, baseUrl: base, autoStartServer: false });
    const event = poly.firehose();
    await until(() => [...hub.sessions].some((s) => [...s.subscriptions.values()].some((sub) => sub.method === "firehose")));
    fake.broadcast(priceChange(B1, ids.M2.cond, "0.034", "77", "BUY", "0.034", "0.039", Date.now()));
    const got = await event;
    expect(got.source).toBe("polymarket");
    expect(got.symbol).toBe(B1);
    expect(got.orderbook.bids[0]).toEqual({ price: 0.034, size: 77 });
    await expect(poly.firehose(["no-such-venue"])).rejects.toBeInstanceOf(PmxtError);
    closeSocket(poly);
  });

  it("a wrong key: the upgrade is refused, and pmxtjs's firehose says the socket failed", async () => {
    const wrong = new Polymarket({ pmxtApiKey: "brier_live_0000000000000000000000000000000000000000000", baseUrl: base, autoStartServer: false });
    await expect(wrong.firehose()).rejects.toThrow(/WebSocket transport/);
  });
});

describe("admission", () => {
  it("refuses a missing, malformed, unknown or revoked key with the HTTP surface's status and body", async () => {
    const refused = async (url: string, headers: Record<string, string> = {}) => {
      const error = (await StreamClient.connect(url, headers).then(
        () => undefined,
        (e: unknown) => e,
      )) as { status?: number; body?: string } | undefined;
      return { status: error?.status, body: JSON.parse(error?.body ?? "{}") as { success?: boolean; error?: { code?: string; message?: string } } };
    };
    const missing = await refused(wsBase);
    expect(missing.status).toBe(401);
    expect(missing.body.error?.code).toBe("AUTHENTICATION_ERROR");
    expect((await refused(`${wsBase}?apiKey=not-a-key`)).status).toBe(401);
    expect((await refused(`${wsBase}?token=brier_live_0000000000000000000000000000000000000000000`)).status).toBe(401);

    const { key, keyId, accountId } = await makeKey("free");
    const byHeader = await StreamClient.connect(wsBase, { authorization: `Bearer ${key}` });
    const byToken = await StreamClient.connect(`${wsBase}?token=${key}`);
    await revokeApiKey(await getDb(), accountId, keyId);
    expect((await refused(`${wsBase}?apiKey=${key}`)).status).toBe(401);
    // Open connections of a revoked key are closed at the next re-check.
    await Promise.all([byHeader.closed(), byToken.closed()]);
    expect(byHeader.closeCode).toBe(1008);
    expect(byHeader.closeReason).toBe("API key revoked");
  });

  it("admits a dashboard session only from the dashboard's own origin, and writes a usage row per upgrade", async () => {
    const { key, keyId, accountId } = await makeKey("pro");
    const cookie = `next-auth.session-token=${await encode({ token: { sub: accountId }, secret: getAuthSecret() })}`;
    const own = base; // the Host the socket connects to
    for (const [label, origin] of [
      ["foreign origin", "https://evil.example"],
      ["sibling subdomain", `http://evil.${new URL(base).host}`],
      ["Origin: null", "null"],
    ] as const) {
      const refusal = (await StreamClient.connect(wsBase, { cookie, origin }).then(
        () => undefined,
        (e: unknown) => e,
      )) as { status?: number; body?: string } | undefined;
      expect(refusal?.status, label).toBe(403);
      expect(JSON.parse(refusal?.body ?? "{}")).toMatchObject({ success: false, error: { code: "PERMISSION_DENIED" } });
    }
    // A socket with the session cookie and no Origin is no browser's: refused as well.
    expect(await StreamClient.connect(wsBase, { cookie }).then(() => 101, (e: unknown) => (e as { status?: number }).status)).toBe(403);
    const session = await StreamClient.connect(wsBase, { cookie, origin: own });
    expect((await session.request({ id: "s", action: "subscribe", exchange: "polymarket", method: "watchOrderBook", args: [A1] })).event).toBe("subscribed");
    await session.close();
    // A key from any origin: no browser attaches a key by itself.
    const keyed = await StreamClient.connect(`${wsBase}?apiKey=${key}`, { origin: "https://evil.example" });
    await keyed.close();

    await flushUsage();
    const rows = await (await getDb()).select().from(usage).where(and(eq(usage.accountId, accountId), eq(usage.path, "/ws")));
    expect(rows.filter((row) => row.keyId === keyId && row.status === 101)).toHaveLength(1);
    expect(rows.filter((row) => row.keyId === null && row.status === 101)).toHaveLength(1);
    expect(rows.filter((row) => row.keyId === null && row.status === 403)).toHaveLength(4);
  });

  it("caps connections per key", async () => {
    const { key } = await makeKey("free");
    const open = await Promise.all([1, 2, 3].map(() => StreamClient.connect(`${wsBase}?apiKey=${key}`)));
    const fourth = await StreamClient.connect(`${wsBase}?apiKey=${key}`).then(
      () => undefined,
      (e: unknown) => e as { status: number; body: string },
    );
    expect(fourth?.status).toBe(429);
    expect(fourth?.body).toMatch(/At most 3 stream connections/);
    await open[0]?.close();
    await until(() => [...hub.sessions].filter((s) => s.principal.plan === "free").length < 3);
    const again = await StreamClient.connect(`${wsBase}?apiKey=${key}`);
    await Promise.all([again.close(), open[1]?.close(), open[2]?.close()]);
  });
});

describe("protocol errors and plan limits", () => {
  it("answers a message nested 10,000 levels deep with an error naming the limit, and keeps serving", async () => {
    const { key } = await makeKey("pro");
    const client = await StreamClient.connect(`${wsBase}?apiKey=${key}`);
    for (const deep of ["[".repeat(10_000) + "]".repeat(10_000), '{"a":'.repeat(10_000) + "1" + "}".repeat(10_000)]) {
      client.send(`{"id":"deep","action":"subscribe","exchange":"polymarket","method":"watchOrderBook","args":[${deep}]}`);
      expect((await client.next((m) => m.event === "error")).error).toEqual({ code: "INVALID_MESSAGE", message: TOO_DEEP_MESSAGE });
    }
    expect((await client.request({ id: "ok", action: "subscribe", exchange: "polymarket", method: "watchOrderBook", args: [A1] })).event).toBe("subscribed");
    await client.close();
  });

  it("answers bad messages with an error event naming the problem and keeps the connection open", async () => {
    const { key } = await makeKey("pro");
    const client = await StreamClient.connect(`${wsBase}?apiKey=${key}`);
    client.send("{not json");
    // pmxt's sidecar says "Invalid JSON" (no period) and pmxt's own server test reads that text.
    expect((await client.next((m) => m.event === "error")).error).toEqual({ code: "INVALID_MESSAGE", message: "Invalid JSON" });
    client.send({ id: "m1", exchange: "polymarket", method: "watchOrderBook", args: [A1] });
    const missing = await client.next((m) => m.id === "m1");
    expect(missing.error?.code).toBe("INVALID_MESSAGE");
    expect(missing.error?.message).toMatch(/action/);
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ exchange: "nowhere", method: "watchOrderBook", args: [A1] }, "NOT_FOUND", /exchange/],
      [{ exchange: "polymarket", method: "watchEverything", args: [] }, "NOT_FOUND", /method/],
      [{ exchange: "polymarket", method: "fetchMarkets", args: [] }, "BAD_REQUEST", /not a streaming method/],
      [{ exchange: "polymarket", method: "watchOrderBook", args: [123] }, "VALIDATION_ERROR", /outcomeId|string/],
      [{ exchange: "polymarket", method: "watchOrderBook", args: [] }, "VALIDATION_ERROR", /.+/],
      [{ exchange: "polymarket", method: "firehose", args: [["polymarket"], 1] }, "VALIDATION_ERROR", /firehose/],
      [{ exchange: "mock", method: "watchOrderBook", args: ["mock-m1-yes"] }, "NOT_SUPPORTED", /watchOrderBook/],
    ];
    let n = 0;
    for (const [message, code, text] of cases) {
      n += 1;
      const id = `case-${n}`;
      client.send({ id, action: "subscribe", ...message });
      const answer = await client.next((m) => m.id === id && m.event === "error");
      expect(answer.error?.code, JSON.stringify(message)).toBe(code);
      expect(answer.error?.message).toMatch(text);
    }
    // Still open and serving.
    expect((await client.request({ id: "ok", action: "subscribe", exchange: "polymarket", method: "watchOrderBook", args: [A1] })).event).toBe("subscribed");
    const book = await client.next((m) => m.id === "ok" && m.event === "data");
    expect(book.symbol).toBe(A1);
    expect((await client.request({ id: "ok", action: "subscribe", exchange: "polymarket", method: "watchOrderBook", args: [A1] })).error?.code).toBe(
      "ALREADY_SUBSCRIBED",
    );
    expect((await client.request({ id: "u1", action: "unsubscribe", exchange: "polymarket", method: "unwatchOrderBook", args: [A1] })).event).toBe("subscribed");
    expect((await client.request({ id: "u2", action: "unsubscribe", exchange: "polymarket", method: "watchOrderBook", args: [A1] })).error?.code).toBe(
      "NOT_SUBSCRIBED",
    );
    await client.close();
  });

  it("refuses one subscription more than the plan allows, per key across connections", async () => {
    const { key } = await makeKey("free");
    const one = await StreamClient.connect(`${wsBase}?apiKey=${key}`);
    const two = await StreamClient.connect(`${wsBase}?apiKey=${key}`);
    const sub = (client: StreamClient, id: string, args: unknown[], method = "watchOrderBook") =>
      client.request({ id, action: "subscribe", exchange: "polymarket", method, args });
    expect((await sub(one, "a", [[...recorded]], "watchOrderBooks")).event).toBe("subscribed"); // 4 streams
    expect((await sub(two, "b", [A1, 5])).event).toBe("subscribed"); // 5
    const sixth = await sub(two, "c", [B1, 3]);
    expect(sixth.error?.code).toBe("SUBSCRIPTION_LIMIT");
    expect(sixth.error?.message).toMatch(/free plan allows 5/);
    expect((await one.request({ id: "x", action: "unsubscribe", exchange: "polymarket", method: "watchOrderBooks", args: [[...recorded]] })).event).toBe("subscribed");
    expect((await sub(two, "c", [B1, 3])).event).toBe("subscribed");
    // The depth limit applies: at most 3 levels a side.
    const limited = await two.next((m) => m.id === "c" && m.event === "data");
    expect((limited.data as { bids: unknown[] }).bids.length).toBeLessThanOrEqual(3);
    await Promise.all([one.close(), two.close()]);
  });
});

describe("resolution events (watchResolutions)", () => {
  it("delivers each change the sink records to the subscriptions that follow its market or its venue, in order, never a repeat", async () => {
    const sink = new ResolutionSink(await getDb(), (await getTickStores()).writer, bus);
    const { key } = await makeKey("pro");
    const market = await StreamClient.connect(`${wsBase}?apiKey=${key}`);
    const venue = await StreamClient.connect(`${wsBase}?apiKey=${key}`);
    const sub = (client: StreamClient, id: string, exchange: string, args: unknown[]) =>
      client.request({ id, action: "subscribe", exchange, method: "watchResolutions", args });
    // By books key and by an outcome id of another market; a whole venue; another venue.
    expect((await sub(market, "m", "kalshi", [["KXWS-1", "KXWS-3-NO"]])).event).toBe("subscribed");
    expect((await sub(venue, "k", "kalshi", [])).event).toBe("subscribed");
    expect((await sub(venue, "p", "polymarket", [null])).event).toBe("subscribed");
    const closedAt = new Date("2026-11-20T12:00:00Z");
    const determined = new Date("2026-11-20T13:00:00Z");
    await sink.record([resolutionRecord({ venueMarketId: "KXWS-1", state: "closed", venueState: "closed", closedAt, venueTime: closedAt })]);
    await sink.record([resolutionRecord({ venueMarketId: "KXWS-2", state: "closed", closedAt, venueTime: closedAt })]);
    await sink.record([
      resolutionRecord({ venueMarketId: "KXWS-1", state: "determined", venueState: "determined", winningOutcomeId: "KXWS-1", settlementValue: 1, closedAt, venueTime: determined }),
    ]);
    // The same statement again is not a change: no event.
    await sink.record([resolutionRecord({ venueMarketId: "KXWS-1", state: "determined", venueState: "determined", winningOutcomeId: "KXWS-1", settlementValue: 1, closedAt, venueTime: determined })]);
    await sink.record([resolutionRecord({ venueMarketId: "KXWS-3", state: "voided", venueState: "finalized", closedAt, venueTime: determined })]);

    const first = await market.next((m) => m.id === "m" && m.event === "resolution");
    expect(first).toMatchObject({ event: "resolution", method: "watchResolutions", symbol: "KXWS-1", seq: 1 });
    expect(first.data).toMatchObject({ venue: "kalshi", market: "KXWS-1", state: "closed", closedAt: closedAt.toISOString(), learnedBy: "push", synthetic: false });
    const second = await market.next((m) => m.id === "m" && m.event === "resolution");
    expect(second).toMatchObject({ symbol: "KXWS-1", seq: 2 });
    expect(second.data).toMatchObject({ state: "determined", winningOutcomeId: "KXWS-1", settlementValue: 1, venueTime: determined.toISOString(), outcomeIds: ["KXWS-1", "KXWS-1-NO"] });
    const third = await market.next((m) => m.id === "m" && m.event === "resolution");
    expect(third).toMatchObject({ symbol: "KXWS-3", seq: 3, data: { state: "voided", winningOutcomeId: null } });

    const all: ServerMessage[] = [];
    for (let i = 0; i < 4; i += 1) all.push(await venue.next((m) => m.id === "k" && m.event === "resolution"));
    expect(all.map((m) => [m.symbol, (m.data as { state: string }).state, m.seq])).toEqual([
      ["KXWS-1", "closed", 1],
      ["KXWS-2", "closed", 2],
      ["KXWS-1", "determined", 3],
      ["KXWS-3", "voided", 4],
    ]);
    // A Polymarket change reaches the Polymarket follower only.
    await sink.record([resolutionRecord({ venue: "polymarket", venueMarketId: "9101", market: `0x${"ab".repeat(32)}`, outcomeIds: ["91011", "91012"], state: "proposed", venueTime: determined })]);
    const poly = await venue.next((m) => m.id === "p" && m.event === "resolution");
    expect(poly).toMatchObject({ symbol: `0x${"ab".repeat(32)}`, seq: 1, data: { venue: "polymarket", venueMarketId: "9101", state: "proposed" } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(market.messages.filter((m) => m.event === "resolution")).toEqual([]);
    expect(venue.messages.filter((m) => m.event === "resolution")).toEqual([]);

    // Unsubscribed: the next change of its market is not sent to it.
    expect((await market.request({ id: "u", action: "unsubscribe", exchange: "kalshi", method: "watchResolutions", args: [["KXWS-1", "KXWS-3-NO"]] })).event).toBe("subscribed");
    await sink.record([resolutionRecord({ venueMarketId: "KXWS-1", state: "settled", venueState: "finalized", winningOutcomeId: "KXWS-1", settlementValue: 1, venueTime: new Date("2026-11-20T14:00:00Z") })]);
    expect(await venue.next((m) => m.id === "k" && m.event === "resolution")).toMatchObject({ symbol: "KXWS-1", seq: 5, data: { state: "settled" } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(market.messages.filter((m) => m.event === "resolution")).toEqual([]);
    await Promise.all([market.close(), venue.close()]);
  });

  it("validates its arguments and counts one subscription per market, or one for the venue", async () => {
    const { key } = await makeKey("free");
    const client = await StreamClient.connect(`${wsBase}?apiKey=${key}`);
    const sub = (id: string, exchange: string, args: unknown[]) => client.request({ id, action: "subscribe", exchange, method: "watchResolutions", args });
    expect((await sub("a", "kalshi", [[1]])).error?.code).toBe("VALIDATION_ERROR");
    expect((await sub("b", "kalshi", [[]])).error?.message).toMatch(/watchResolutions takes one optional argument/);
    expect((await sub("c", "kalshi", [["A"], ["B"]])).error?.code).toBe("VALIDATION_ERROR");
    expect((await sub("d", "nowhere", [])).error?.code).toBe("NOT_FOUND");
    const six = await sub("e", "kalshi", [["A", "B", "C", "D", "E", "F"]]);
    expect(six.error?.code).toBe("SUBSCRIPTION_LIMIT");
    expect(six.error?.message).toMatch(/free plan allows 5/);
    expect((await sub("f", "kalshi", [["A", "B", "C", "D"]])).event).toBe("subscribed");
    expect((await sub("g", "kalshi", [])).event).toBe("subscribed");
    expect((await sub("h", "polymarket", [])).error?.code).toBe("SUBSCRIPTION_LIMIT");
    await client.close();
  });
});

describe("slow consumers", () => {
  it("coalesces to the latest book per symbol, never delivers an older book after a newer one, and closes a client that stays behind", async () => {
    const { key } = await makeKey("pro");
    const client = await StreamClient.connect(`${wsBase}?apiKey=${key}`);
    expect((await client.request({ id: "fh", action: "subscribe", exchange: "polymarket", method: "firehose", args: [["polymarket"]] })).event).toBe(
      "subscribed",
    );
    // Stop reading: the kernel buffers fill, then the server's.
    const socket = (client.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    socket.pause();
    const levels: [number, number][] = Array.from({ length: 400 }, (_, i) => [Number((0.001 * (i + 1)).toFixed(3)), 1000 + i]);
    let seq = 0;
    const publish = (asset: string) => {
      seq += 1;
      const message: BookMessage = { venue: "polymarket", assetId: asset, market: "m", epoch: "e", seq, timestamp: seq, bids: levels, asks: levels, inSync: true };
      bus.publishBook(message);
    };
    const started = Date.now();
    while (client.closeCode === undefined && Date.now() - started < 20_000) {
      for (let i = 0; i < 20; i += 1) publish(i % 2 === 0 ? "slow-x" : "slow-y");
      await new Promise((resolve) => setImmediate(resolve));
      if (Date.now() - started > 300) await new Promise((resolve) => setTimeout(resolve, 5));
      if ([...hub.sessions].every((s) => s.principal.keyId === null || !s.subscriptions.has(`polymarket:firehose:[["polymarket"]]`))) break;
    }
    const session = [...hub.sessions].find((s) => s.subscriptions.has(`polymarket:firehose:[["polymarket"]]`));
    expect(session).toBeUndefined(); // closed by the server
    socket.resume();
    await client.closed();
    expect(client.closeCode).toBe(1008);
    expect(client.closeReason).toMatch(/^slow consumer/);
    const data = client.messages.filter((m): m is ServerMessage & { data: { timestamp: number; _symbol: string } } => m.event === "data");
    expect(data.length).toBeGreaterThan(0);
    expect(data.length).toBeLessThan(seq); // coalesced, not queued without bound
    for (const symbol of ["slow-x", "slow-y"]) {
      const stamps = data.filter((m) => m.data._symbol === symbol).map((m) => m.data.timestamp);
      expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
      expect(new Set(stamps).size).toBe(stamps.length);
    }
  });
});

describe("venue watchers for what the recorder does not record", () => {
  it("streams a non-recorded asset through the key's pmxt-core watcher and releases it when the client leaves", async () => {
    const { key, keyId } = await makeKey("pro");
    const client = await StreamClient.connect(`${wsBase}?apiKey=${key}`);
    const M3 = ids.M3.yes;
    expect((await client.request({ id: "w", action: "subscribe", exchange: "polymarket", method: "watchOrderBook", args: [M3] })).event).toBe("subscribed");
    expect(hub.watchers.activeFor(keyId)).toBe(1);
    const openBefore = fake.openSockets();
    const book = JSON.stringify({
      market: ids.M3.cond,
      asset_id: M3,
      event_type: "book",
      timestamp: String(Date.now()),
      hash: "x",
      bids: [{ price: "0.2", size: "10" }],
      asks: [{ price: "0.3", size: "20" }],
    });
    // pmxt-core subscribes after its 100 ms batching; repeat until its book arrives.
    const received = client.next((m) => m.id === "w" && m.event === "data", 15_000);
    const timer = setInterval(() => fake.broadcast(book), 200);
    const data = (await received.finally(() => clearInterval(timer))).data as { bids: { price: number }[] };
    expect(data.bids[0]?.price).toBe(0.2);
    expect(fake.openSockets()).toBeGreaterThan(openBefore - 1);
    await client.close();
    await until(() => hub.watchers.activeFor(keyId) === 0);
    // The key's stream instance is closed, and its venue socket with it.
    await until(() => !passthroughPool().has({ kind: "watch", venue: "polymarket", owner: `${keyId}#stream` }));
  });
});
