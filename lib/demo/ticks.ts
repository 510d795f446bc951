import "server-only";
import type { ClickHouseClient } from "@clickhouse/client";
import type { Db } from "@/lib/db";
import { hostname } from "node:os";
import { openQuotedMarkets } from "@/lib/catalog/market-reads";
import { BARE_MODE_VENUE } from "@/lib/recorder/journal";
import { writeSyntheticRun } from "@/lib/recorder/journal-store";
import { normalizeFrame } from "@/lib/recorder/polymarket/normalize";
import type { TickRow } from "@/lib/recorder/rows";
import { insertTickRows } from "@/lib/recorder/writer";

/**
 * SYNTHETIC order-book history for offline demos (docs/ticks.md): one simulated L2 book per market
 * (the YES token's; the NO token's is its mirror, NO bid = 1 - YES ask), and only what that book
 * does is written: a level placed, resized or cancelled, a trade taking from the best level, and a
 * snapshot of the whole book every `bookEverySeconds`. So every book the rows imply is the
 * simulated one: never crossed, and the `best_bid` / `best_ask` each change states are the
 * rebuilt book's (the history's `inSync` stays true). The mid price walks around the YES outcome's
 * catalog price and ends near it; a share of the markets (`resolveShare`) closes before the end
 * instead, its walk heading to the result drawn some hours before (docs/outcomes.md, "The offline demo"). The frames are built in the venue's wire shape and go through
 * the recorder's own normalizer, so the rows look exactly like recorded ones; every change has a
 * timestamp of its own per asset, so a replay orders them as they happened. Never run by the
 * service itself; `admin demo-ticks` runs it on request.
 */

export interface DemoMarket {
  /** Condition id (catalog `contractAddress`). */
  conditionId: string;
  /** Outcome token ids, YES first. */
  outcomeIds: readonly string[];
  /** The catalog market's id, when known: the demo's price history is written under it. */
  marketId?: string;
  /** The catalog's venue-native id, when known: a synthetic resolution is recorded under it. */
  venueMarketId?: string;
  /**
   * The YES outcome's catalog price (0..1): the walk stays near it and ends near it, so the
   * candles, the recorded book and the catalog agree on one page. Absent: a random start.
   */
  yesPrice?: number;
}

/** One outcome's simulated price at one instant (what a catalog poll would have seen). */
export interface DemoPrice {
  atMs: number;
  market: DemoMarket;
  outcomeId: string;
  /** The mid of the simulated book, 0..1. */
  price: number;
  bestBid: number;
  bestAsk: number;
}

export interface DemoTickOptions {
  days?: number;
  now?: number;
  seed?: number;
  /** Mean seconds between changes of one market's book. */
  meanStepSeconds?: number;
  /** Seconds between book snapshots. */
  bookEverySeconds?: number;
  /** Seconds between the price samples handed to `onPrices` (the catalog poll's price history). */
  priceEverySeconds?: number;
  /** Receives the simulated prices of each market, oldest first, once the market is written. */
  onPrices?: (prices: DemoPrice[]) => Promise<void>;
  onProgress?: (marketsDone: number, marketsTotal: number, rows: number) => void;
  /**
   * The share of the markets (0..1, default 0) whose simulated history ends in a close and a
   * result (docs/outcomes.md, "The offline demo"): spread evenly over the list, the first (most
   * traded) market always left open.
   */
  resolveShare?: number;
}

/**
 * A market the simulation closed, and what its price path says of it (docs/outcomes.md, "The
 * offline demo"): its YES mid at the close decides, above 50% Yes, below No, exactly 50% a 50-50.
 */
export interface DemoResolution {
  market: DemoMarket;
  /** When trading stopped: no book change is written after it. */
  closedAtMs: number;
  /** When the simulation drew the result the path then moves towards (with the probability the mid gave Yes then). */
  decidedAtMs: number;
  /** The YES mid at the decision and at the close, 0..1. */
  midAtDecision: number;
  midAtClose: number;
  result: "yes" | "no" | "split";
}

export interface DemoTickResult {
  markets: number;
  rows: number;
  byEventType: Record<string, number>;
  /** The window the history covers, epoch ms. */
  since: number;
  until: number;
  /** Every outcome token written. */
  assets: string[];
  /** Each outcome's price as the history ends (the mid of its last book). */
  last: DemoPrice[];
  /** The markets the simulation closed (`resolveShare`), in the order written. */
  resolutions: DemoResolution[];
}

/** mulberry32: a small seeded PRNG, so demo data (this history, the spreads demo pair) is reproducible. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const price = (cents: number) => String(Math.round(cents) / 100);

type Side = "BUY" | "SELL";

/** A change of the YES book: the new total size at one level (0 removes it). */
interface LevelChange {
  side: Side;
  cents: number;
  size: number;
}

/**
 * The YES token's book in whole cents. The NO token's book is its mirror: a YES bid at p is a NO
 * ask at 100 - p with the same size, so one book drives both tokens' rows.
 */
export class DemoBook {
  readonly bids = new Map<number, number>();
  readonly asks = new Map<number, number>();

  bestBid(): number {
    return Math.max(...this.bids.keys());
  }

  bestAsk(): number {
    return Math.min(...this.asks.keys());
  }

  apply(change: LevelChange): void {
    const levels = change.side === "BUY" ? this.bids : this.asks;
    if (change.size <= 0) levels.delete(change.cents);
    else levels.set(change.cents, change.size);
  }

  /** Wire order: bids ascending, asks descending (best level last). */
  wireLevels(mirror: boolean): { bids: Array<{ price: string; size: string }>; asks: Array<{ price: string; size: string }> } {
    const side = (levels: Map<number, number>, flip: boolean, ascending: boolean) =>
      [...levels.entries()]
        .map(([cents, size]) => [flip ? 100 - cents : cents, size] as const)
        .sort((a, b) => (ascending ? a[0] - b[0] : b[0] - a[0]))
        .map(([cents, size]) => ({ price: price(cents), size: String(size) }));
    return mirror ? { bids: side(this.asks, true, true), asks: side(this.bids, true, false) } : { bids: side(this.bids, false, true), asks: side(this.asks, false, false) };
  }
}

/** Levels kept on each side: fewer and one is added behind the last, more and the farthest goes. */
const MIN_LEVELS = 3;
const MAX_LEVELS = 8;
const MAX_SPREAD = 5;

/** A frame in the venue's wire shape and its venue time; the sink normalizes it into rows. */
export type FrameSink = (frame: unknown, ts: number) => Promise<void> | void;

/**
 * One mock market's simulated YES book (its NO book mirrors it) and what it does: the history
 * writer steps it over days, the live demo (./live.ts) one change at a time while the server runs.
 * Every change goes out as a venue frame through `sink`, stating the best prices after it.
 */
export class MockMarketSim {
  readonly book = new DemoBook();
  readonly yes: string;
  readonly no: string;
  readonly #market: DemoMarket;
  readonly #random: () => number;
  readonly #sink: FrameSink;
  #target: number | undefined;
  readonly #hex: (length: number) => string;
  readonly #size: () => number;

  constructor(market: DemoMarket, random: () => number, sink: FrameSink, hex: (length: number) => string) {
    const [yes, no] = market.outcomeIds;
    if (yes === undefined || no === undefined) throw new Error("a demo market needs two outcomes");
    this.yes = yes;
    this.no = no;
    this.#market = market;
    this.#random = random;
    this.#sink = sink;
    this.#hex = hex;
    this.#size = () => Math.round(50 + random() * 5000);
    this.#target = market.yesPrice === undefined || !Number.isFinite(market.yesPrice) ? undefined : Math.min(95, Math.max(5, market.yesPrice * 100));
    const firstBid = this.#target === undefined ? 10 + Math.floor(random() * 78) : Math.max(2, Math.round(this.#target) - 1);
    const firstAsk = firstBid + 1 + Math.floor(random() * 2);
    for (let i = 0; i < 5; i += 1) {
      if (firstBid - i > 0) this.book.bids.set(firstBid - i, this.#size());
      if (firstAsk + i < 100) this.book.asks.set(firstAsk + i, this.#size());
    }
  }

  get market(): DemoMarket {
    return this.#market;
  }

  /**
   * From now on the walk is pulled towards a result instead of the catalog price: the mid moves
   * to 98.5¢ (Yes) or 1.5¢ (No), the edge of a book in whole cents.
   */
  resolveTowards(yes: boolean): void {
    this.#target = yes ? 99 : 1;
  }

  /** The YES book's mid, 0..1. */
  mid(): number {
    return (this.book.bestBid() + this.book.bestAsk()) / 200;
  }

  /** Both outcomes' prices now (what a catalog poll would have seen). */
  prices(atMs: number): DemoPrice[] {
    const bid = this.book.bestBid();
    const ask = this.book.bestAsk();
    return [
      { atMs, market: this.#market, outcomeId: this.yes, price: (bid + ask) / 200, bestBid: bid / 100, bestAsk: ask / 100 },
      { atMs, market: this.#market, outcomeId: this.no, price: 1 - (bid + ask) / 200, bestBid: (100 - ask) / 100, bestAsk: (100 - bid) / 100 },
    ];
  }

  /** One change of the YES book and its NO mirror, each stating the best prices after it. */
  async #change(c: LevelChange, ts: number): Promise<void> {
    const { book } = this;
    book.apply(c);
    const bid = book.bestBid();
    const ask = book.bestAsk();
    const hash = this.#hex(40);
    await this.#sink(
      {
        market: this.#market.conditionId,
        price_changes: [
          { asset_id: this.yes, price: price(c.cents), size: String(c.size), side: c.side, hash, best_bid: price(bid), best_ask: price(ask) },
          { asset_id: this.no, price: price(100 - c.cents), size: String(c.size), side: c.side === "BUY" ? "SELL" : "BUY", hash: this.#hex(40), best_bid: price(100 - ask), best_ask: price(100 - bid) },
        ],
        timestamp: String(ts),
        event_type: "price_change",
      },
      ts,
    );
  }

  /** A snapshot of both tokens' whole books. */
  async snapshot(ts: number): Promise<void> {
    const side = (asset: string, mirror: boolean) => ({
      market: this.#market.conditionId,
      asset_id: asset,
      timestamp: String(ts),
      hash: this.#hex(40),
      ...this.book.wireLevels(mirror),
      tick_size: "0.01",
      event_type: "book",
    });
    await this.#sink([side(this.yes, false), side(this.no, true)], ts);
  }

  /** Keeps each side between MIN_LEVELS and MAX_LEVELS deep, one change per level. */
  async #keepDepth(ts: number): Promise<number> {
    const { book } = this;
    let t = ts;
    for (const side of ["BUY", "SELL"] as const) {
      const levels = side === "BUY" ? book.bids : book.asks;
      const away = side === "BUY" ? -1 : 1;
      while (levels.size < MIN_LEVELS) {
        const worst = side === "BUY" ? Math.min(...levels.keys()) : Math.max(...levels.keys());
        const cents = worst + away * (1 + Math.floor(this.#random() * 2));
        if (cents <= 0 || cents >= 100) break;
        await this.#change({ side, cents, size: this.#size() }, (t += 1));
      }
      while (levels.size > MAX_LEVELS) {
        const worst = side === "BUY" ? Math.min(...levels.keys()) : Math.max(...levels.keys());
        await this.#change({ side, cents: worst, size: 0 }, (t += 1));
      }
    }
    return t;
  }

  /**
   * One step at `ts`: a level placed or cancelled at the best prices (a move of the mid, pulled
   * towards the market's price), a resting order resized, or a trade. Returns the last
   * timestamp used (a step may take a few milliseconds: one change per millisecond).
   */
  async step(ts: number): Promise<number> {
    const { book } = this;
    const random = this.#random;
    const bid = book.bestBid();
    const ask = book.bestAsk();
    const spread = ask - bid;
    // Mean reversion: the further the mid is from the catalog price, the likelier a move towards it.
    const pull = this.#target === undefined ? 0 : Math.max(-0.3, Math.min(0.3, (this.#target - (bid + ask) / 2) * 0.06));
    const action = random();
    let t = ts;
    if (action < 0.45) {
      const up = random() < 0.5 + pull;
      // Up: a bid placed inside the spread, or the best ask taken away; down: the mirror image.
      const inside = spread > 1 && (spread >= MAX_SPREAD || random() < 0.5);
      if (up) {
        if (inside) await this.#change({ side: "BUY", cents: bid + 1, size: this.#size() }, t);
        else if (book.asks.size > 1 && ask + 1 < 100) await this.#change({ side: "SELL", cents: ask, size: 0 }, t);
        else await this.#change({ side: "BUY", cents: bid, size: this.#size() }, t);
      } else if (inside) await this.#change({ side: "SELL", cents: ask - 1, size: this.#size() }, t);
      else if (book.bids.size > 1 && bid - 1 > 0) await this.#change({ side: "BUY", cents: bid, size: 0 }, t);
      else await this.#change({ side: "SELL", cents: ask, size: this.#size() }, t);
    } else if (action < 0.85) {
      // A resting order resized somewhere in the top levels, or a level behind the best cancelled.
      const side: Side = random() < 0.5 ? "BUY" : "SELL";
      const levels = [...(side === "BUY" ? book.bids : book.asks).keys()];
      const cents = levels[Math.floor(random() * levels.length)] ?? (side === "BUY" ? bid : ask);
      const best = side === "BUY" ? bid : ask;
      await this.#change({ side, cents, size: cents !== best && random() < 0.25 ? 0 : this.#size() }, t);
    } else {
      // A trade: the taker takes part or all of the best level on the other side.
      const takerBuys = random() < 0.5;
      const cents = takerBuys ? ask : bid;
      const resting = (takerBuys ? book.asks : book.bids).get(cents) ?? 0;
      const taken = Math.max(1, Math.min(resting, Math.round(5 + random() * 500)));
      await this.#sink(
        {
          asset_id: this.yes,
          event_type: "last_trade_price",
          fee_rate_bps: "0",
          market: this.#market.conditionId,
          price: price(cents),
          side: takerBuys ? "BUY" : "SELL",
          size: String(taken),
          timestamp: String(t),
          transaction_hash: `0x${this.#hex(64)}`,
        },
        t,
      );
      const levels = takerBuys ? book.asks : book.bids;
      // The last level of a side is refilled rather than emptied: a demo book never goes one-sided.
      const left = resting - taken > 0 || levels.size > 1 ? resting - taken : this.#size();
      await this.#change({ side: takerBuys ? "SELL" : "BUY", cents, size: left }, (t += 1));
    }
    return this.#keepDepth(t);
  }
}

/** Eight hex digits per draw: a hash per row is most of the generator's own work otherwise. */
export function hexDigits(random: () => number): (length: number) => string {
  return (length: number) => {
    let out = "";
    while (out.length < length) out += Math.floor(random() * 0x100000000).toString(16).padStart(8, "0");
    return out.slice(0, length);
  };
}

const HOUR_MS = 3_600_000;

/**
 * When a resolving market closes and when its result is drawn (docs/outcomes.md, "The offline
 * demo"): the close falls in the history's later part, at least 26 hours after its start when the
 * history is long enough (so the 1-day horizon has a recorded book) and 2 hours before its end;
 * the draw 8 to 20 hours before the close (so the 1-day forecast is from before it, the 1-hour
 * one after), never in the history's first hour.
 */
function closingPlan(start: number, now: number, draw: () => number): { closeMs: number; decideMs: number } {
  const span = now - start;
  const latest = now - 2 * HOUR_MS;
  const earliest = Math.min(latest, start + Math.max(0.55 * span, Math.min(26 * HOUR_MS, 0.9 * span)));
  const closeMs = Math.round(earliest + draw() * (latest - earliest));
  const lead = Math.min((8 + draw() * 12) * HOUR_MS, closeMs - start - HOUR_MS);
  return { closeMs, decideMs: Math.round(closeMs - Math.max(0, lead)) };
}

export async function writeDemoTicks(writer: ClickHouseClient, markets: readonly DemoMarket[], options: DemoTickOptions = {}): Promise<DemoTickResult> {
  const days = options.days ?? 7;
  const now = options.now ?? Date.now();
  const start = now - days * 86_400_000;
  const random = prng(options.seed ?? 42);
  const meanStep = (options.meanStepSeconds ?? 30) * 1000;
  const bookEvery = (options.bookEverySeconds ?? 900) * 1000;
  const priceEvery = (options.priceEverySeconds ?? 600) * 1000;
  const hex = hexDigits(random);
  const result: DemoTickResult = { markets: 0, rows: 0, byEventType: {}, since: start, until: now, assets: [], last: [], resolutions: [] };
  let batch: TickRow[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await insertTickRows(writer, batch);
    batch = [];
  };
  const emit = async (frame: unknown, ts: number) => {
    for (const row of normalizeFrame(JSON.stringify(frame), ts + 5 + Math.floor(random() * 200)).rows) {
      batch.push(row);
      result.rows += 1;
      result.byEventType[row.eventType] = (result.byEventType[row.eventType] ?? 0) + 1;
    }
    // Large inserts: each is a part the engine merges later, and merging many small ones costs more than writing them.
    if (batch.length >= 100_000) await flush();
  };

  const share = Math.min(1, Math.max(0, options.resolveShare ?? 0));
  // The resolutions' own draws (which close when, each decision) come from a stream of their own, so
  // the histories of the markets left open are the same whatever the share.
  const draw = prng((options.seed ?? 42) ^ 0x5eed);
  for (const [index, market] of markets.entries()) {
    if (market.outcomeIds.length < 2) continue;
    const sim = new MockMarketSim(market, random, emit, hex);
    result.markets += 1;
    result.assets.push(sim.yes, sim.no);
    const plan = Math.floor((index + 1) * share) > Math.floor(index * share) ? closingPlan(start, now, draw) : undefined;
    let decision: { atMs: number; mid: number } | undefined;
    // A step writes a few changes a millisecond apart: a closing market's last starts a second before its close.
    const end = plan === undefined ? now : plan.closeMs - 1_000;
    const prices: DemoPrice[] = [];
    let nextBook = start;
    let nextPrice = start;
    let last = start;
    for (let ts = start + Math.floor(random() * meanStep); ts < end; ts += 1 + Math.floor(-Math.log(1 - random()) * meanStep)) {
      ts = Math.max(ts, last + 1);
      if (ts >= end) break;
      while (nextPrice <= ts) {
        prices.push(...sim.prices(nextPrice));
        nextPrice += priceEvery;
      }
      if (plan !== undefined && decision === undefined && ts >= plan.decideMs) {
        // The result is drawn with the probability the market gave Yes at that instant, and the
        // walk heads there: the prices before it were honest forecasts, the ones after it sharpen.
        decision = { atMs: ts, mid: sim.mid() };
        sim.resolveTowards(draw() < decision.mid);
      }
      if (ts >= nextBook) {
        await sim.snapshot(ts);
        nextBook = ts + bookEvery;
        last = ts;
        continue;
      }
      last = await sim.step(ts);
    }
    if (plan !== undefined) {
      // Closed: the book stays as it stood (no change after the close), so every later price is its mid.
      const midAtClose = sim.mid();
      result.resolutions.push({
        market,
        closedAtMs: plan.closeMs,
        decidedAtMs: decision?.atMs ?? plan.closeMs,
        midAtDecision: decision?.mid ?? midAtClose,
        midAtClose,
        result: midAtClose > 0.5 ? "yes" : midAtClose < 0.5 ? "no" : "split",
      });
    }
    // The book as the history ends: the price a catalog poll at `now` sees (the demo's quotes).
    while (nextPrice < now) {
      prices.push(...sim.prices(nextPrice));
      nextPrice += priceEvery;
    }
    const final = sim.prices(Math.max(now, last));
    prices.push(...final);
    result.last.push(...final);
    options.onProgress?.(result.markets, markets.length, result.rows);
    await options.onPrices?.(prices);
  }
  await flush();
  return result;
}

/**
 * Writes the demo's journal entry: a run of mode `synthetic` over the history's window and the
 * assets it wrote, so coverage, the archive manifest and /v0/coverage label those hours
 * `synthetic` instead of `missing` (no recorder ran) and /v0/status never shows it as a recorder.
 */
export async function recordDemoRun(db: Db, result: Pick<DemoTickResult, "since" | "until" | "assets" | "rows">): Promise<void> {
  if (result.assets.length === 0) return;
  await writeSyntheticRun(db, {
    venue: BARE_MODE_VENUE,
    host: hostname(),
    pid: process.pid,
    startedAt: new Date(result.since),
    beatAt: new Date(result.until),
    stoppedAt: new Date(result.until),
    counters: { rowsWritten: result.rows, synthetic: true },
    incidents: [
      {
        kind: "assets_added",
        startedAt: new Date(result.since),
        assets: result.assets,
        message: `Synthetic demo history written by admin demo-ticks for ${result.assets.length} outcome(s): not recorded from a venue.`,
      },
    ],
  });
}

/**
 * The mock venue's open markets with a contract address, YES token first, with the YES outcome's
 * catalog price (the demo's ticks are drawn around it).
 */
export async function demoMarketsFromCatalog(db: Db, exchange = "mock", limit = 5_000): Promise<DemoMarket[]> {
  const rows = await openQuotedMarkets(db, { exchange, limit });
  const out: DemoMarket[] = [];
  for (const row of rows) {
    // Binary markets only: the simulated NO book mirrors the YES book, which a third outcome would not.
    const [yes, no] = row.outcomes;
    if (row.contractAddress === null || yes === undefined || no === undefined || row.outcomes.length !== 2) continue;
    out.push({ conditionId: row.contractAddress, outcomeIds: row.outcomes.map((o) => o.outcomeId), marketId: row.id, venueMarketId: row.venueMarketId, yesPrice: yes.price });
  }
  return out;
}

/** Groups the catalog's outcome tokens (topOutcomeTokens) into markets, YES first as listed. */
export function demoMarketsFromTokens(tokens: ReadonlyArray<{ conditionId: string; outcomeId: string }>): DemoMarket[] {
  const byMarket = new Map<string, string[]>();
  for (const token of tokens) byMarket.set(token.conditionId, [...(byMarket.get(token.conditionId) ?? []), token.outcomeId]);
  return [...byMarket.entries()].map(([conditionId, outcomeIds]) => ({ conditionId, outcomeIds }));
}
