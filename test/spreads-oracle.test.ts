import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as spreadsRoute } from "@/app/v0/pairs/[a]/[b]/spreads/route";
import { getDb } from "@/lib/db";
import { RecorderJournal } from "@/lib/recorder/journal";
import { KalshiRecorder } from "@/lib/recorder/kalshi/recorder";
import { Recorder } from "@/lib/recorder/polymarket/recorder";
import { marketFeeAt, takerFee, type Fill, type MarketFee } from "@/lib/spreads/fees";
import type { SpreadPoint, SpreadsPage } from "@/lib/spreads/shapes";
import { getTickStores } from "@/lib/ticks";
import { makeEvent, seedCatalog } from "./helpers/catalog";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";
import { kalshiScript, startFakeKalshiChannel, type FakeKalshiChannel, type KalshiBook } from "./fakes/kalshi-channel";
import { startFakeMarketChannel, type FakeMarketChannel } from "./fakes/market-channel";

/**
 * The spread of a pair recorded from the two loopback venues (Polymarket's market channel and
 * Kalshi's), through both recorders with their journals, read from GET /v0/pairs/{a}/{b}/spreads,
 * against an oracle written here: it replays the raw frames each fake sent, with each venue's own
 * semantics and without lib/books, lib/recorder or lib/spreads' series, walks both books itself in
 * integer units, and prices the fees with the fee module (checked against the venues' worked
 * examples in lib/spreads/fees.test.ts). Every point must equal the oracle's exactly.
 */

const CONDITION = `0x${"5e".repeat(32)}`;
const YES = "7700000000000000000000000000000000000000000000000000000000000000000000000001";
const NO = "7700000000000000000000000000000000000000000000000000000000000000000000000002";
const TICKER = "KXORACLE-26DEC31-T50";
const SIZE = 150;

const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const keyId = "oracle-key";
const kalshiBook: KalshiBook = { yes: [["0.4100", "120.00"], ["0.4600", "80.00"]], no: [["0.4200", "90.00"], ["0.5000", "60.00"]] };

/** A Polymarket market-channel script in the venue's wire format: a book, then one-level changes stating the best prices. */
function polymarketFrames(startMs: number, count: number, stepMs: number): Array<{ ts: number; text: string }> {
  let state = 11;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const bids = new Map<number, number>([[44, 300], [45, 120], [46, 90]]);
  const asks = new Map<number, number>([[48, 100], [49, 250], [51, 400]]);
  const price = (cents: number) => (cents / 100).toFixed(2);
  const levels = (side: Map<number, number>, descending: boolean) => [...side].sort((x, y) => (descending ? y[0] - x[0] : x[0] - y[0])).map(([c, s]) => ({ price: price(c), size: String(s) }));
  const frames = [
    {
      ts: startMs,
      text: JSON.stringify([
        { market: CONDITION, asset_id: YES, timestamp: String(startMs), hash: "h0", bids: levels(bids, false), asks: levels(asks, true), tick_size: "0.01", event_type: "book" },
        { market: CONDITION, asset_id: NO, timestamp: String(startMs), hash: "h1", bids: levels(new Map([...asks].map(([c, s]) => [100 - c, s])), false), asks: levels(new Map([...bids].map(([c, s]) => [100 - c, s])), true), tick_size: "0.01", event_type: "book" },
      ]),
    },
  ];
  for (let i = 1; i <= count; i += 1) {
    const ts = startMs + i * stepMs;
    const buy = random() < 0.5;
    const bestBid = Math.max(...bids.keys());
    const bestAsk = Math.min(...asks.keys());
    // A level that does not cross the other side; sometimes emptied.
    const cents = buy ? bestAsk - 1 - Math.floor(random() * 8) : bestBid + 1 + Math.floor(random() * 8);
    const size = random() < 0.2 ? 0 : 10 + Math.floor(random() * 400);
    const side = buy ? bids : asks;
    if (size === 0) side.delete(cents);
    else side.set(cents, size);
    if (bids.size === 0) bids.set(40, 50);
    if (asks.size === 0) asks.set(60, 50);
    const bb = Math.max(...bids.keys());
    const ba = Math.min(...asks.keys());
    frames.push({
      ts,
      text: JSON.stringify({
        market: CONDITION,
        timestamp: String(ts),
        event_type: "price_change",
        price_changes: [
          { asset_id: YES, price: price(cents), size: String(size), side: buy ? "BUY" : "SELL", hash: `y${i}`, best_bid: price(bb), best_ask: price(ba) },
          { asset_id: NO, price: price(100 - cents), size: String(size), side: buy ? "SELL" : "BUY", hash: `n${i}`, best_bid: price(100 - ba), best_ask: price(100 - bb) },
        ],
      }),
    });
  }
  return frames;
}

type Book = { bids: Map<number, number>; asks: Map<number, number> };

/** Polymarket's semantics on the raw frames up to `t`: a book replaces both sides, a change sets one level (0 removes). Units: price 1/10,000, size 1/100. */
function polymarketBookAt(frames: ReadonlyArray<{ ts: number; text: string }>, t: number): Book {
  const book: Book = { bids: new Map(), asks: new Map() };
  const units = (text: string, scale: number) => Math.round(Number(text) * scale);
  for (const frame of frames) {
    if (frame.ts > t) break;
    const parsed = JSON.parse(frame.text) as unknown;
    for (const event of Array.isArray(parsed) ? parsed : [parsed]) {
      const e = event as { event_type: string; asset_id?: string; bids?: Array<{ price: string; size: string }>; asks?: Array<{ price: string; size: string }>; price_changes?: Array<{ asset_id: string; price: string; size: string; side: string }> };
      if (e.event_type === "book" && e.asset_id === YES) {
        book.bids = new Map((e.bids ?? []).map((l) => [units(l.price, 1e4), units(l.size, 100)]));
        book.asks = new Map((e.asks ?? []).map((l) => [units(l.price, 1e4), units(l.size, 100)]));
      }
      for (const change of e.price_changes ?? []) {
        if (change.asset_id !== YES) continue;
        const side = change.side === "BUY" ? book.bids : book.asks;
        const size = units(change.size, 100);
        if (size === 0) side.delete(units(change.price, 1e4));
        else side.set(units(change.price, 1e4), size);
      }
    }
  }
  return book;
}

/** Kalshi's semantics on the raw frames up to `t`: YES bids, and YES asks as NO bids at 1 − p; deltas are signed. */
function kalshiBookAt(frames: readonly string[], t: number): Book {
  const yes = new Map<number, number>();
  const no = new Map<number, number>();
  const units = (text: unknown, scale: number) => Math.round(Number(text) * scale);
  for (const text of frames) {
    const frame = JSON.parse(text) as { type: string; msg?: Record<string, unknown> };
    if (frame.msg?.market_ticker !== TICKER) continue;
    if (frame.type === "orderbook_snapshot") {
      yes.clear();
      no.clear();
      for (const [p, s] of frame.msg.yes_dollars_fp as Array<[string, string]>) yes.set(units(p, 1e4), units(s, 100));
      for (const [p, s] of frame.msg.no_dollars_fp as Array<[string, string]>) no.set(units(p, 1e4), units(s, 100));
    } else if (frame.type === "orderbook_delta" && Number(frame.msg.ts_ms) <= t) {
      const side = frame.msg.side === "yes" ? yes : no;
      const price = units(frame.msg.price_dollars, 1e4);
      const total = (side.get(price) ?? 0) + units(frame.msg.delta_fp, 100);
      if (total > 0) side.set(price, total);
      else side.delete(price);
    }
  }
  return { bids: yes, asks: new Map([...no].map(([p, s]) => [10_000 - p, s])) };
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

/** Walks `levels` ([price, size] units, best first) for SIZE contracts, buying or selling (a sale's revenue is positive: Kalshi floors the balance it brings). */
function walk(levels: Array<[number, number]>, fee: MarketFee, side: "buy" | "sell"): { filled: number; notional: number; fee: number | null } {
  let filled = 0;
  let notional = 0;
  const fills: Fill[] = [];
  for (const [price, size] of levels) {
    const take = Math.min(SIZE * 100 - filled, size);
    if (take <= 0) break;
    filled += take;
    notional += price * take;
    fills.push({ price: price / 1e4, size: take / 100 });
  }
  return { filled, notional, fee: fee.known ? takerFee(fee, fills, side) : null };
}

function oraclePoint(t: number, poly: Book, kalshi: Book, feeA: MarketFee, feeB: MarketFee): Pick<SpreadPoint, "a" | "b" | "gross" | "net"> {
  const sorted = (side: Map<number, number>, descending: boolean) => [...side].sort((x, y) => (descending ? y[0] - x[0] : x[0] - y[0]));
  const quote = (book: Book) => {
    const [bid] = sorted(book.bids, true);
    const [ask] = sorted(book.asks, false);
    return { bid: bid === undefined ? null : bid[0] / 1e4, bidSize: bid === undefined ? 0 : bid[1] / 100, ask: ask === undefined ? null : ask[0] / 1e4, askSize: ask === undefined ? 0 : ask[1] / 100 };
  };
  const a = quote(poly);
  const b = quote(kalshi);
  const direction = (buyBook: Book, buyFee: MarketFee, sellBook: Book, sellFee: MarketFee) => {
    const buy = walk(sorted(buyBook.asks, false), buyFee, "buy");
    const sell = walk(sorted(sellBook.bids, true), sellFee, "sell");
    const fees = buy.fee === null || sell.fee === null ? null : round6(buy.fee + sell.fee);
    const complete = buy.filled >= SIZE * 100 && sell.filled >= SIZE * 100;
    const total = complete && fees !== null ? round6((sell.notional - buy.notional) / 1e6 - fees) : null;
    return {
      perContract: total === null ? null : round6(total / SIZE),
      total,
      fillable: Math.min(buy.filled, sell.filled) / 100,
      fees,
      buyPrice: buy.filled > 0 ? round6(buy.notional / 1e6 / (buy.filled / 100)) : null,
      sellPrice: sell.filled > 0 ? round6(sell.notional / 1e6 / (sell.filled / 100)) : null,
    };
  };
  const gross = (bid: number | null, ask: number | null) => (bid === null || ask === null ? null : round6(bid - ask));
  return {
    a,
    b,
    gross: { aToB: gross(b.bid, a.ask), bToA: gross(a.bid, b.ask) },
    net: { aToB: direction(poly, feeA, kalshi, feeB), bToA: direction(kalshi, feeB, poly, feeA) },
  };
}

let polyFake: FakeMarketChannel;
let kalshiFake: FakeKalshiChannel;
let polyFrames: Array<{ ts: number; text: string }>;
let startMs: number;
let endMs: number;
const stops: Array<() => Promise<void>> = [];

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  const db = await getDb();
  const stores = await getTickStores();
  // Venue times ahead (8 s, for a loaded machine): both recorders subscribe, and Kalshi stamps its snapshot with the receive time, before the first change.
  startMs = Date.now() + 8_000;
  polyFrames = polymarketFrames(startMs, 300, 7);
  const script = kalshiScript({ [TICKER]: kalshiBook }, 300, startMs + 3, 13, 7);
  endMs = Math.max(polyFrames.at(-1)?.ts ?? 0, script.at(-1)?.tsMs ?? 0);
  polyFake = await startFakeMarketChannel({ frames: polyFrames.map((f) => f.text) });
  kalshiFake = await startFakeKalshiChannel({ publicKey: publicKey.export({ type: "spki", format: "pem" }).toString(), keyId, books: { [TICKER]: kalshiBook }, events: script });
  await seedCatalog([
    makeEvent({ venue: "polymarket", category: "Politics" }, [{ venueMarketId: "oracle-poly", contractAddress: CONDITION, outcomes: [{ outcomeId: YES, label: "Yes", price: 0.5, priceChange24h: 0 }, { outcomeId: NO, label: "No", price: 0.5, priceChange24h: 0 }] }]),
    makeEvent({ venue: "kalshi", category: "Politics" }, [{ venue: "kalshi", venueMarketId: TICKER, contractAddress: null, outcomes: [{ outcomeId: TICKER, label: "Yes", price: 0.5, priceChange24h: 0 }, { outcomeId: `${TICKER}-NO`, label: "No", price: 0.5, priceChange24h: 0 }] }]),
  ]);
  const polyJournal = new RecorderJournal(db, { mode: "in-process" });
  const polyRecorder = new Recorder({ writer: stores.writer, wsUrl: polyFake.url, assets: async () => [YES, NO], maxAssets: 10, pingIntervalMs: 1_000, minBackoffMs: 20, writerOptions: { flushIntervalMs: 50 }, journal: polyJournal });
  const kalshiJournal = new RecorderJournal(db, { mode: "in-process", venue: "kalshi" });
  const kalshiRecorder = new KalshiRecorder({ writer: stores.writer, wsUrl: kalshiFake.url, credentials: { keyId, privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString() }, tickers: async () => [TICKER], maxMarkets: 10, minBackoffMs: 20, writerOptions: { flushIntervalMs: 50 }, journal: kalshiJournal });
  stops.push(() => polyRecorder.stop(), () => kalshiRecorder.stop(), () => polyFake.close(), () => kalshiFake.close());
  await polyRecorder.start();
  await kalshiRecorder.start();
  await polyFake.replays(1);
  await kalshiFake.replays(1);
  await until(() => polyRecorder.stats.frames >= polyFrames.length && kalshiRecorder.stats.frames >= (kalshiFake.sent[0]?.length ?? Number.POSITIVE_INFINITY));
  await polyRecorder.writer.flush();
  await kalshiRecorder.writer.flush();
  await polyJournal.flush();
  await kalshiJournal.flush();
  // The recorders keep running (their runs cover the window up to now) until every venue time has passed.
  await until(() => Date.now() > endMs + 200);
});

afterAll(async () => {
  for (const stop of stops) await stop();
});

describe("spread of a pair recorded from both loopback venues, against an independent replay of the raw frames", () => {
  it("prices every instant either book changed exactly as the oracle does, fees included", async () => {
    const { key } = await makeKey("pro");
    const path = `/v0/pairs/oracle-poly/${TICKER}/spreads?since=${startMs - 1_000}&until=${endMs}&size=${SIZE}&limit=5000`;
    const res = await callRoute(spreadsRoute, { path, key, params: { a: "oracle-poly", b: TICKER } });
    expect(res.status, res.text).toBe(200);
    const page = res.body as SpreadsPage;
    expect(page.meta.pair.a.outcomeId).toBe(YES);
    expect(page.meta.pair.b.outcomeId).toBe(TICKER);
    expect(page.meta.pair.a.fee).toMatchObject({ known: true, basis: "upper_bound" });
    expect(page.meta.pair.b.fee).toMatchObject({ known: true, takerRate: "0.07", basis: "schedule" });

    // Every change of either venue's book is an instant of the series.
    const times = new Set(page.data.map((p) => p.t));
    const kalshiFrames = kalshiFake.sent[0] ?? [];
    const deltaTimes = kalshiFrames.map((text) => JSON.parse(text) as { type: string; msg?: { ts_ms?: number } }).filter((f) => f.type === "orderbook_delta").map((f) => f.msg?.ts_ms ?? 0);
    for (const t of [...polyFrames.map((f) => f.ts), ...deltaTimes]) expect(times.has(t), `instant ${t}`).toBe(true);

    const feeA = marketFeeAt({ venue: "polymarket", venueMarketId: "oracle-poly", category: "Politics" }, endMs);
    const feeB = marketFeeAt({ venue: "kalshi", venueMarketId: TICKER, category: "Politics" }, endMs);
    const known = page.data.filter((p) => p.known);
    expect(known.length).toBeGreaterThan(500);
    // Before both books are known (the first snapshot), the instant is unknown, never guessed.
    expect(page.data[0]?.known).toBe(false);
    let executableSeen = 0;
    for (const point of known) {
      const expected = oraclePoint(point.t, polymarketBookAt(polyFrames, point.t), kalshiBookAt(kalshiFrames, point.t), feeA, feeB);
      expect({ t: point.t, a: point.a, b: point.b, gross: point.gross, net: point.net }).toEqual({ t: point.t, ...expected });
      if (point.net?.aToB.perContract !== null || point.net?.bToA.perContract !== null) executableSeen += 1;
    }
    expect(executableSeen).toBeGreaterThan(0);
  });

  it("answers a grid from the same books: each grid instant sees every change at or before it", async () => {
    const { key } = await makeKey("pro");
    const since = Math.ceil((startMs + 500) / 1000) * 1000;
    const res = await callRoute(spreadsRoute, { path: `/v0/pairs/oracle-poly/${TICKER}/spreads?since=${since}&until=${endMs}&size=${SIZE}&interval=1s`, key, params: { a: "oracle-poly", b: TICKER } });
    expect(res.status, res.text).toBe(200);
    const page = res.body as SpreadsPage;
    expect(page.data.length).toBeGreaterThan(0);
    const feeA = marketFeeAt({ venue: "polymarket", venueMarketId: "oracle-poly", category: "Politics" }, endMs);
    const feeB = marketFeeAt({ venue: "kalshi", venueMarketId: TICKER, category: "Politics" }, endMs);
    for (const point of page.data) {
      expect(point.t % 1000).toBe(0);
      expect(point.known).toBe(true);
      const expected = oraclePoint(point.t, polymarketBookAt(polyFrames, point.t), kalshiBookAt(kalshiFake.sent[0] ?? [], point.t), feeA, feeB);
      expect({ a: point.a, b: point.b, gross: point.gross, net: point.net }).toEqual(expected);
    }
  });
});
