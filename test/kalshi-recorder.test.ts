import { generateKeyPairSync } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as bookRoute } from "@/app/v0/orderbooks/[outcomeId]/route";
import { GET as tradesRoute } from "@/app/v0/trades/[outcomeId]/route";
import { GET as coverageRoute } from "@/app/v0/coverage/route";
import { getDb } from "@/lib/db";
import { RecorderJournal } from "@/lib/recorder/journal";
import { KalshiRecorder } from "@/lib/recorder/kalshi/recorder";
import { InProcessBus, type BookMessage, type TradeMessage } from "@/lib/live/bus";
import { StreamHub } from "@/lib/streams/hub";
import { LivePublisher } from "@/lib/live/publisher";
import { createStreamServer } from "@/lib/streams/ws-server";
import { getTickStores, type TickStores } from "@/lib/ticks";
import { makeEvent, seedCatalog } from "./helpers/catalog";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";
import { StreamClient } from "./helpers/stream-client";
import { kalshiScript, startFakeKalshiChannel, type FakeKalshiChannel, type KalshiBook } from "./fakes/kalshi-channel";

const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const keyId = "test-key-id";
const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const publicPem = publicKey.export({ type: "spki", format: "pem" }).toString();

const restBook = JSON.parse(readFileSync(path.resolve(__dirname, "fixtures/venues/kalshi_orderbook.json"), "utf8")) as {
  orderbook_fp: { yes_dollars: Array<[string, string]>; no_dollars: Array<[string, string]> };
};
const events = JSON.parse(readFileSync(path.resolve(__dirname, "fixtures/venues/kalshi_events.json"), "utf8")) as {
  events: Array<{ markets: Array<{ ticker: string }> }>;
};
const tickers = events.events.flatMap((event) => event.markets.map((market) => market.ticker)).slice(0, 3);
const books: Record<string, KalshiBook> = Object.fromEntries(
  tickers.map((ticker, i) => [
    ticker,
    i === 0
      ? { yes: restBook.orderbook_fp.yes_dollars, no: restBook.orderbook_fp.no_dollars }
      : { yes: [["0.3100", "50.00"], [`0.${40 + i}00`, "75.00"]], no: [["0.4000", "20.00"], ["0.5200", "130.00"]] },
  ]),
);

type Obj = Record<string, unknown>;
interface Side {
  price: number;
  size: number;
}

/**
 * The oracle: Kalshi's semantics applied to the raw frames the fake sent, written here without the
 * recorder or lib/books. A snapshot sets both bid ladders; a delta adds its signed change to one
 * level (0 or less removes it). The YES book's asks are the NO bids at 1 − p; the NO book mirrors.
 */
function oracle(frames: readonly string[], ticker: string, atMs: number): { yes: { bids: Side[]; asks: Side[] }; no: { bids: Side[]; asks: Side[] } } {
  const yes = new Map<number, number>();
  const no = new Map<number, number>();
  const cents = (text: unknown) => Math.round(Number(text) * 10_000);
  for (const text of frames) {
    const frame = JSON.parse(text) as { type: string; msg: Obj };
    if (frame.msg?.market_ticker !== ticker) continue;
    if (frame.type === "orderbook_snapshot") {
      yes.clear();
      no.clear();
      for (const [p, s] of frame.msg.yes_dollars_fp as Array<[string, string]>) yes.set(cents(p), cents(s));
      for (const [p, s] of frame.msg.no_dollars_fp as Array<[string, string]>) no.set(cents(p), cents(s));
    } else if (frame.type === "orderbook_delta" && Number(frame.msg.ts_ms) <= atMs) {
      const side = frame.msg.side === "yes" ? yes : no;
      const price = cents(frame.msg.price_dollars);
      const total = (side.get(price) ?? 0) + cents(frame.msg.delta_fp);
      if (total > 0) side.set(price, total);
      else side.delete(price);
    }
  }
  const bids = (levels: Map<number, number>) => [...levels].sort((a, b) => b[0] - a[0]).map(([p, s]) => ({ price: p / 10_000, size: s / 10_000 }));
  const asks = (levels: Map<number, number>) => [...levels].sort((a, b) => b[0] - a[0]).map(([p, s]) => ({ price: (10_000 - p) / 10_000, size: s / 10_000 }));
  return { yes: { bids: bids(yes), asks: asks(no) }, no: { bids: bids(no), asks: asks(yes) } };
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function storedRows(stores: TickStores, where = "1"): Promise<Array<{ ts: number; market: string; event_type: string; data: string }>> {
  const result = await stores.writer.query({
    query: `SELECT toUnixTimestamp64Milli(timestamp) AS ts, market, event_type, data FROM kalshi_orderbook WHERE ${where} ORDER BY timestamp, event_type, cityHash64(data)`,
    format: "JSONEachRow",
  });
  return (await result.json<{ ts: string | number; market: string; event_type: string; data: string }>()).map((row) => ({ ...row, ts: Number(row.ts) }));
}

let stores: TickStores;
let fake: FakeKalshiChannel;
let script: ReturnType<typeof kalshiScript>;
const recorders: KalshiRecorder[] = [];

function makeRecorder(source: () => Promise<string[]> = async () => tickers, credentials = { keyId, privateKey: pem }): KalshiRecorder {
  const recorder = new KalshiRecorder({
    writer: stores.writer,
    wsUrl: fake.url,
    credentials,
    tickers: source,
    maxMarkets: 100,
    minBackoffMs: 20,
    writerOptions: { flushIntervalMs: 50 },
  });
  recorders.push(recorder);
  return recorder;
}

beforeAll(async () => {
  stores = await getTickStores();
});

beforeEach(async () => {
  await stores.writer.command({ query: "TRUNCATE TABLE kalshi_orderbook" });
  // Venue times a minute ahead: the snapshots (stamped when received) come before every delta.
  script = kalshiScript(books, 400, Date.now() + 60_000);
  fake = await startFakeKalshiChannel({ publicKey: publicPem, keyId, books, events: script });
});

afterEach(async () => {
  for (const recorder of recorders.splice(0)) await recorder.stop();
  await fake.close();
});

describe("Kalshi recorder against the loopback channel", () => {
  it("signs the handshake, subscribes both channels and stores snapshot, delta and trade rows", async () => {
    const recorder = makeRecorder();
    await recorder.start();
    await fake.replays(1);
    await until(() => recorder.stats.frames === (fake.sent[0]?.length ?? -1));
    await recorder.writer.flush();
    expect(fake.refused()).toBe(0);
    expect(fake.received.filter((c) => c.cmd === "subscribe").map((c) => c.params)).toEqual([
      { channels: ["orderbook_delta"], market_tickers: tickers },
      { channels: ["trade"], market_tickers: tickers },
      // Every market's lifecycle (outcomes): the channel takes no ticker filter.
      { channels: ["market_lifecycle_v2"] },
    ]);
    const deltas = script.filter((e) => e.type === "delta").length;
    const trades = script.filter((e) => e.type === "trade").length;
    const rows = await storedRows(stores);
    expect(rows.filter((r) => r.event_type === "book")).toHaveLength(2 * tickers.length);
    expect(rows.filter((r) => r.event_type === "price_change")).toHaveLength(2 * deltas);
    expect(rows.filter((r) => r.event_type === "last_trade_price")).toHaveLength(2 * trades);
    expect(recorder.status()).toMatchObject({ malformedFrames: 0, sequenceGaps: 0, subscribedMarkets: 3, subscribedAssets: 6 });

    // The REST fixture's book as the first market's snapshot: a NO bid at p is a YES ask at 1 − p, best level last.
    const [first] = tickers;
    const yesBook = rows.find((r) => r.event_type === "book" && JSON.parse(r.data).asset_id === first);
    expect(JSON.parse(yesBook?.data ?? "{}")).toEqual({
      asset_id: first,
      bids: [["0.5500", "1200.00"], ["0.5700", "310.00"], ["0.5900", "955.00"], ["0.6000", "2140.00"]],
      asks: [["0.6800", "2500.00"], ["0.6500", "640.00"], ["0.6300", "1015.00"], ["0.6200", "860.00"]],
      hash: "",
      tick_size: "",
    });
    // A trade is one row per outcome: the taker bought YES at the YES price, or NO at the NO price.
    const trade = script.find((e) => e.type === "trade");
    if (trade?.type !== "trade") throw new Error("script has no trade");
    const tradeRows = rows.filter((r) => r.event_type === "last_trade_price" && r.ts === trade.tsMs).map((r) => JSON.parse(r.data) as Obj);
    expect(tradeRows).toContainEqual({ asset_id: trade.ticker, price: trade.yesPrice, size: trade.count, side: trade.takerSide === "yes" ? "BUY" : "SELL", fee_rate_bps: "", transaction_hash: trade.tradeId });
    expect(tradeRows).toContainEqual({ asset_id: `${trade.ticker}-NO`, price: (1 - Number(trade.yesPrice)).toFixed(4), size: trade.count, side: trade.takerSide === "no" ? "BUY" : "SELL", fee_rate_bps: "", transaction_hash: trade.tradeId });
  });

  it("GET /v0/orderbooks/{outcomeId}?at= of a Kalshi outcome equals the oracle's replay of the frames, for both outcomes", async () => {
    await seedCatalog([
      makeEvent(
        { venue: "kalshi" },
        tickers.map((ticker) => ({
          venueMarketId: ticker,
          venue: "kalshi",
          contractAddress: null,
          outcomes: [
            { outcomeId: ticker, label: "Yes", price: 0.5, priceChange24h: 0 },
            { outcomeId: `${ticker}-NO`, label: "No", price: 0.5, priceChange24h: 0 },
          ],
        })),
      ),
    ]);
    const { key } = await makeKey("pro");
    const db = await getDb();
    const journal = new RecorderJournal(db, { mode: "in-process", venue: "kalshi" });
    const recorder = new KalshiRecorder({
      writer: stores.writer,
      wsUrl: fake.url,
      credentials: { keyId, privateKey: pem },
      tickers: async () => tickers,
      maxMarkets: 100,
      minBackoffMs: 20,
      writerOptions: { flushIntervalMs: 50 },
      journal,
    });
    recorders.push(recorder);
    await recorder.start();
    await fake.replays(1);
    await until(() => recorder.stats.frames === (fake.sent[0]?.length ?? -1));
    await recorder.writer.flush();
    const frames = fake.sent[0] ?? [];
    const deltas = script.filter((e) => e.type === "delta");
    const instants = [deltas[0], deltas[Math.floor(deltas.length / 3)], deltas[Math.floor(deltas.length / 2)], deltas[deltas.length - 1]].map((e) => e?.tsMs ?? 0);
    const book = async (outcomeId: string, at: number) => {
      const res = await callRoute(bookRoute, { path: `/v0/orderbooks/${outcomeId}?at=${at}`, key, params: { outcomeId } });
      expect(res.status).toBe(200);
      return (res.body as { data: { market: string; bids: Side[]; asks: Side[]; inSync: boolean } }).data;
    };
    for (const ticker of tickers) {
      for (const at of instants) {
        const expected = oracle(frames, ticker, at);
        const yes = await book(ticker, at);
        const no = await book(`${ticker}-NO`, at);
        expect({ bids: yes.bids, asks: yes.asks }).toEqual(expected.yes);
        expect({ bids: no.bids, asks: no.asks }).toEqual(expected.no);
        expect(yes.market).toBe(ticker);
        expect(yes.inSync && no.inSync).toBe(true);
      }
      // The live book (what /ws serves) is the final one.
      const live = recorder.books.get(ticker)?.view();
      expect({ bids: live?.bids, asks: live?.asks }).toEqual(oracle(frames, ticker, Number.MAX_SAFE_INTEGER).yes);
    }
    // Trades of a Kalshi outcome come from kalshi_orderbook too.
    const trade = script.find((e) => e.type === "trade");
    if (trade?.type !== "trade") throw new Error("script has no trade");
    const trades = await callRoute(tradesRoute, { path: `/v0/trades/${trade.ticker}?since=${trade.tsMs - 1}&until=${trade.tsMs}`, key, params: { outcomeId: trade.ticker } });
    expect((trades.body as { data: Obj[] }).data).toContainEqual(expect.objectContaining({ id: trade.tradeId, price: Number(trade.yesPrice), side: trade.takerSide === "yes" ? "buy" : "sell" }));

    // Coverage reads kalshi_orderbook and the Kalshi recorder's own run: the current hour is recorded.
    await journal.flush();
    const [first] = tickers;
    const coverage = await callRoute(coverageRoute, { path: `/v0/coverage?outcomeId=${first}-NO`, key });
    expect(coverage.status).toBe(200);
    const asset = (coverage.body as { data: { market: string; assets: Array<{ rowsByType: Record<string, number>; hours: Array<{ condition: string }> }> } }).data;
    expect(asset.market).toBe(first);
    expect(asset.assets[0]?.rowsByType.book).toBe(1);
    expect(asset.assets[0]?.hours.at(-1)?.condition).not.toBe("missing");
  });

  it("publishes live books and trades on the live bus under venue kalshi, and answers snapshot requests", async () => {
    const bus = new InProcessBus();
    const books = new Map<string, BookMessage>();
    const trades: TradeMessage[] = [];
    bus.subscribeBooks("kalshi", undefined, (message) => books.set(message.assetId, message));
    for (const ticker of tickers) bus.subscribeTrades("kalshi", ticker, (message) => trades.push(message));
    const recorder = new KalshiRecorder({
      writer: stores.writer,
      wsUrl: fake.url,
      credentials: { keyId, privateKey: pem },
      tickers: async () => tickers,
      maxMarkets: 100,
      minBackoffMs: 20,
      writerOptions: { flushIntervalMs: 50 },
      live: new LivePublisher(bus, "kalshi"),
    });
    recorders.push(recorder);
    await recorder.start();
    await fake.replays(1);
    await until(() => recorder.stats.frames === (fake.sent[0]?.length ?? -1));
    const frames = fake.sent[0] ?? [];
    const pairs = (levels: Side[]) => levels.map((level) => [level.price, level.size]);
    for (const ticker of tickers) {
      const expected = oracle(frames, ticker, Number.MAX_SAFE_INTEGER);
      expect(books.get(ticker)).toMatchObject({ venue: "kalshi", market: ticker, bids: pairs(expected.yes.bids), asks: pairs(expected.yes.asks) });
      expect(books.get(`${ticker}-NO`)).toMatchObject({ venue: "kalshi", bids: pairs(expected.no.bids), asks: pairs(expected.no.asks) });
      const snapshot = await bus.requestSnapshot("kalshi", `${ticker}-NO`);
      expect(snapshot?.book?.bids).toEqual(pairs(expected.no.bids));
    }
    expect(trades).toHaveLength(script.filter((e) => e.type === "trade").length);
    expect(trades[0]).toMatchObject({ venue: "kalshi", side: expect.stringMatching(/^(buy|sell)$/) });
  });

  it("/ws serves the recorder's Kalshi books: the firehose (_source kalshi) and watchOrderBook, ending on the oracle's book", async () => {
    const bus = new InProcessBus();
    const hub = new StreamHub({ bus, limits: { subscriptions: { free: 5, pro: 100, enterprise: 1000 }, connectionsPerKey: 3, bufferBytes: 256 * 1024, maxPending: 10_000, slowConsumerMs: 5_000 } });
    const streams = createStreamServer({ hub: async () => hub });
    const server = createServer((_req, res) => res.writeHead(404).end());
    server.on("upgrade", streams.upgrade);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    const { port } = server.address() as AddressInfo;
    const { key } = await makeKey("pro");
    const client = await StreamClient.connect(`ws://127.0.0.1:${port}/ws?apiKey=${key}`);
    try {
      expect((await client.request({ id: "fh", action: "subscribe", exchange: "kalshi", method: "firehose", args: [["kalshi"]] })).event).toBe("subscribed");
      const recorder = new KalshiRecorder({
        writer: stores.writer,
        wsUrl: fake.url,
        credentials: { keyId, privateKey: pem },
        tickers: async () => tickers,
        maxMarkets: 100,
        minBackoffMs: 20,
        writerOptions: { flushIntervalMs: 50 },
        live: new LivePublisher(bus, "kalshi"),
      });
      recorders.push(recorder);
      await recorder.start();
      await fake.replays(1);
      await until(() => recorder.stats.frames === (fake.sent[0]?.length ?? -1));
      const [first] = tickers;
      const expected = oracle(fake.sent[0] ?? [], first ?? "", Number.MAX_SAFE_INTEGER).no;
      type FirehoseBook = { _source: string; _symbol: string; bids: Side[]; asks: Side[] };
      const latest = () => client.messages.map((m) => m.data as FirehoseBook).filter((book) => book?._symbol === `${first}-NO`).at(-1);
      // Updates of one book may coalesce on the way; the last one delivered is the recorder's final book.
      await until(() => JSON.stringify(latest()?.bids) === JSON.stringify(expected.bids));
      expect(latest()).toMatchObject({ _source: "kalshi", bids: expected.bids, asks: expected.asks });

      // watchOrderBook on exchange kalshi is served from the recorder: its current book first.
      expect((await client.request({ id: "wb", action: "subscribe", exchange: "kalshi", method: "watchOrderBook", args: [`${first}-NO`] })).event).toBe("subscribed");
      const book = await client.next((m) => m.event === "data" && m.id === "wb");
      expect(book.data).toMatchObject({ bids: expected.bids, asks: expected.asks });
      expect(hub.counters.booksIn).toBeGreaterThan(0);
    } finally {
      await client.close();
      await streams.close();
      await hub.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("a restart replaying the same deltas and trades stores none of them twice (dedup seeded from the table)", async () => {
    const first = makeRecorder();
    await first.start();
    await fake.replays(1);
    await until(() => first.stats.frames === (fake.sent[0]?.length ?? -1));
    await first.stop();
    const before = await storedRows(stores);

    const second = makeRecorder();
    await second.start();
    await fake.replays(2);
    await until(() => second.stats.frames === (fake.sent[1]?.length ?? -1));
    await second.writer.flush();
    const after = await storedRows(stores);
    // The new snapshots are new observations (stamped when received); everything else was dropped.
    expect(second.stats.duplicatesDropped).toBe(before.length - 2 * tickers.length);
    expect(after.length).toBe(before.length + 2 * tickers.length);
  });

  it("a skipped sequence number resubscribes for fresh snapshots", async () => {
    const recorder = makeRecorder();
    await recorder.start();
    await fake.replays(1);
    await until(() => recorder.stats.frames === (fake.sent[0]?.length ?? -1));
    fake.broadcast(JSON.stringify({ type: "orderbook_delta", sid: 1, seq: 100_000, msg: { market_ticker: tickers[0], price_dollars: "0.5000", delta_fp: "5.00", side: "yes", ts_ms: Date.now() } }));
    await until(() => fake.connections() === 2);
    await fake.replays(2);
    expect(recorder.status().sequenceGaps).toBe(1);
    expect(recorder.stats.reconnects).toBe(1);
  });

  it("follows the catalog: markets added and removed through update_subscription", async () => {
    let current = tickers.slice(0, 2);
    const recorder = makeRecorder(async () => current);
    await recorder.start();
    await fake.replays(1);
    await until(() => recorder.stats.frames === (fake.sent[0]?.length ?? -1));
    current = [tickers[0] ?? "", tickers[2] ?? ""];
    await recorder.syncMarkets();
    await until(() => fake.received.filter((c) => c.cmd === "update_subscription").length === 4);
    const updates = fake.received.filter((c) => c.cmd === "update_subscription").map((c) => c.params as Obj);
    expect(updates).toContainEqual({ sids: [1], market_tickers: [tickers[1]], action: "delete_markets" });
    expect(updates).toContainEqual({ sids: [1], market_tickers: [tickers[2]], action: "add_markets" });
    expect(updates).toContainEqual({ sids: [2], market_tickers: [tickers[2]], action: "add_markets" });
    await until(() => recorder.books.get(tickers[2] ?? "")?.hasSnapshot === true);
    expect(recorder.isRecording(`${tickers[2]}-NO`)).toBe(true);
    expect(recorder.isRecording(tickers[1] ?? "")).toBe(false);
  });

  it("a key the venue does not accept records nothing and keeps retrying", async () => {
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const recorder = makeRecorder(async () => tickers, { keyId, privateKey: other });
    await recorder.start();
    await until(() => fake.refused() >= 2);
    expect(fake.connections()).toBe(0);
    expect(recorder.status().errors).toBeGreaterThan(0);
    expect(await storedRows(stores)).toHaveLength(0);
  });
});

describe("Kalshi recorder without credentials", () => {
  it("records nothing, does not fail, and says why in /v0/status", async () => {
    const { getDb } = await import("@/lib/db");
    const { startKalshiRecorder } = await import("@/lib/recorder/kalshi/service");
    const { getServiceStatus } = await import("@/lib/status/service-status");
    const db = await getDb();
    expect(await startKalshiRecorder(stores, db)).toBeUndefined();
    // A Kalshi run in the journal (as a recorder with credentials leaves one) must not show as Polymarket's.
    const journal = new RecorderJournal(db, { mode: "in-process", venue: "kalshi" });
    await journal.start(() => ({}));
    await journal.stop();
    const status = (await getServiceStatus(db)) as { kalshiRecorder: Obj; recorder: Obj };
    expect(status.kalshiRecorder).toMatchObject({ venue: "kalshi", table: "kalshi_orderbook", running: false, mode: "not recording" });
    expect(String(status.kalshiRecorder.reason)).toContain("KALSHI_API_KEY_ID");
    // Each recorder's heartbeat is its own.
    expect(status.recorder.heartbeat).toBeNull();
    expect(status.kalshiRecorder.heartbeat).toMatchObject({ mode: "kalshi: in-process", state: "stopped" });
  });
});
