import { describe, expect, it } from "vitest";
import { ReplayBatch, replayBook, type BookRow, type ReplayRow } from "@/lib/books/book-state";
import { prng } from "@/lib/demo/ticks";
import { marketFeeAt, type FeeSubject } from "./fees";
import { pricePair, priceSeries, type Levels, type PriceableBook } from "./series";
import type { SpreadPoint } from "./shapes";
import { walkLeg } from "./spread-math";

/**
 * The series prices each point from books it keeps between points and walks it does not redo while
 * a change lands beyond the levels they reached (series.ts, `Side`). Held here against pricing
 * each point from scratch: both books rebuilt from every row up to the instant (`replayBook`) and
 * walked anew, for random scripts of snapshots and changes at and inside and beyond the walked
 * levels, thin books and removed levels included; and from a market's close on, no point is priced.
 */

const T0 = Date.UTC(2026, 10, 20, 12, 0, 0);
const ASSETS = ["series-test-a", "series-test-b"] as const;
const FEES: readonly [FeeSubject, FeeSubject] = [
  { venue: "polymarket", venueMarketId: "series-test-a", category: "Sports", marketFees: [{ from: null, takerRate: "0.03", exponent: 1, note: "feeSchedule" }] },
  { venue: "kalshi", venueMarketId: "KXSERIES-26DEC31", category: "Economics" },
];

const price = (cents: number) => (cents / 100).toFixed(2);

/** A row of the script: the document as recorded (what lib/books reads from the tick table) and the side it belongs to. */
interface ScriptRow extends BookRow {
  side: number;
}

/** The row as the merged stream carries it (lib/history/ticks.ts): the document's fields a replay reads, positional. */
function sided(row: ScriptRow): ReplayRow {
  const data = JSON.parse(row.data) as Record<string, unknown>;
  if (row.eventType === "book") return [row.timestampMs, row.side, 1, data.bids ?? null, data.asks ?? null];
  return [row.timestampMs, row.side, 0, data.side ?? null, data.price ?? null, data.size ?? null, data.best_bid ?? null, data.best_ask ?? null];
}

/** A random script of both books' rows: a snapshot now and then, changes of one level (0 removes it), each stating the venue's best prices. */
function script(seed: number, count: number): ScriptRow[] {
  const random = prng(seed);
  const books = ASSETS.map(() => ({ bids: new Map<number, number>(), asks: new Map<number, number>() }));
  const rows: ScriptRow[] = [];
  let t = T0;
  for (let i = 0; i < count; i += 1) {
    t += 1 + Math.floor(random() * 3) * 250;
    const side = random() < 0.5 ? 0 : 1;
    const book = books[side] ?? { bids: new Map(), asks: new Map() };
    const asset = ASSETS[side] ?? "";
    const mid = side === 0 ? 50 : 52;
    if (i < 2 || random() < 0.03) {
      book.bids = new Map(Array.from({ length: 2 + Math.floor(random() * 10) }, (_, k) => [mid - 1 - k, 5 + Math.floor(random() * 200)] as [number, number]));
      book.asks = new Map(Array.from({ length: 2 + Math.floor(random() * 10) }, (_, k) => [mid + 1 + k, 5 + Math.floor(random() * 200)] as [number, number]));
      const levels = (m: Map<number, number>) => [...m].map(([c, s]) => [price(c), String(s)]);
      const data = { asset_id: asset, bids: levels(book.bids), asks: levels(book.asks), hash: "", tick_size: "0.01" };
      rows.push({ side, timestampMs: i < 2 ? T0 : t, market: asset, eventType: "book", data: JSON.stringify(data) });
      continue;
    }
    const buy = random() < 0.5;
    const levels = buy ? book.bids : book.asks;
    const best = buy ? Math.max(...levels.keys(), 0) : Math.min(...levels.keys(), 100);
    // At, inside or beyond the levels a walk reaches; never crossing the other side.
    const cents = buy ? Math.min(best + 1 - Math.floor(random() * 12), Math.min(...book.asks.keys(), 100) - 1) : Math.max(best - 1 + Math.floor(random() * 12), Math.max(...book.bids.keys(), 0) + 1);
    const size = random() < 0.25 ? 0 : 1 + Math.floor(random() * 150);
    if (size === 0) levels.delete(cents);
    else levels.set(cents, size);
    const bestBid = Math.max(...book.bids.keys(), 0);
    const bestAsk = Math.min(...book.asks.keys(), 100);
    rows.push({
      side,
      timestampMs: t,
      market: asset,
      eventType: "price_change",
      data: JSON.stringify({ asset_id: asset, price: price(cents), size: String(size), side: buy ? "BUY" : "SELL", hash: "", best_bid: price(bestBid), best_ask: price(bestAsk) }),
    });
  }
  return rows;
}

/** Both books priced from scratch at `t`: every row up to it replayed into fresh books, each walked anew. */
function fromScratch(rows: readonly ScriptRow[], t: number, size: number): SpreadPoint {
  const upTo = rows.filter((row) => row.timestampMs <= t);
  const a = freshBook(upTo.filter((row) => row.side === 0), ASSETS[0], FEES[0], undefined);
  const b = freshBook(upTo.filter((row) => row.side === 1), ASSETS[1], FEES[1], undefined);
  return pricePair(t, a, b, size, 0);
}

/** A book rebuilt from scratch, walked anew at every read. */
function freshBook(rows: readonly BookRow[], assetId: string, fee: FeeSubject, closedAt: number | undefined): PriceableBook {
  const book = replayBook(assetId, assetId, rows);
  const view = book.view();
  const levels: Levels = { bids: view.bids, asks: view.asks };
  return {
    unknownAt: (t) => (closedAt !== undefined && t >= closedAt ? "market_closed" : book.hasSnapshot ? (book.inSync ? null : "out_of_sync") : "no_book"),
    quote: () => ({ bid: levels.bids[0]?.price ?? null, bidSize: levels.bids[0]?.size ?? 0, ask: levels.asks[0]?.price ?? null, askSize: levels.asks[0]?.size ?? 0 }),
    levels: () => levels,
    feeAt: (t) => marketFeeAt(fee, t),
    legs: (size, marketFee) => ({ buy: walkLeg(levels.asks, size, marketFee, "buy"), sell: walkLeg(levels.bids, size, marketFee, "sell") }),
  };
}

async function series(script: readonly ScriptRow[], size: number, closedAt: number | undefined, step?: number, options: { threshold?: number; pricedGrids?: readonly number[] } = {}): Promise<SpreadPoint[]> {
  const until = (script.at(-1)?.timestampMs ?? T0) + 1000;
  const rows = script.map(sided);
  // Batches of uneven sizes, as the engine's chunks come.
  const batches: ReplayBatch[] = [];
  for (let i = 0; i < rows.length; i += 1 + (i % 37)) batches.push(ReplayBatch.of(rows.slice(i, i + 1 + (i % 37))));
  const source = (async function* () {
    yield* batches;
  })();
  const spans = [{ start: T0 - 60_000, end: until + 60_000 }];
  const points: SpreadPoint[] = [];
  const window = { since: T0, until, step, size, threshold: options.threshold ?? 0, initial: true, ...(options.pricedGrids === undefined ? {} : { pricedGrids: options.pricedGrids }) };
  const a = { outcomeId: ASSETS[0], fee: FEES[0], spans };
  const b = { outcomeId: ASSETS[1], fee: FEES[1], spans, ...(closedAt === undefined ? {} : { closedAt }) };
  for await (const batch of priceSeries(a, b, source, window)) points.push(...batch);
  return points;
}

describe("the series' cached books and walks price every point as pricing it from scratch does", () => {
  for (const seed of [11, 12, 13, 14]) {
    for (const size of [1, 60, 400]) {
      it(`every change, seed ${seed}, size ${size}`, async () => {
        const rows = script(seed, 1500);
        const points = await series(rows, size, undefined);
        expect(points.length).toBeGreaterThan(500);
        let priced = 0;
        for (const point of points) {
          expect(point).toEqual(fromScratch(rows, point.t, size));
          if (point.net !== null) priced += 1;
        }
        expect(priced).toBeGreaterThan(points.length / 2);
      });
    }
  }

  // A fold of closed days (day-cache.ts) walks a change only where its gross can reach the threshold, and every point a grid instant takes.
  for (const [seed, threshold, leastUnwalked] of [
    [15, 0, 0.1],
    [16, -0.03, 0],
    [17, 0.01, 0.1],
  ] as const) {
    it(`every change left unwalked only where neither net can be above the threshold, whole where a grid takes it (seed ${seed}, threshold ${threshold})`, async () => {
      const rows = script(seed, 1500);
      const grids = [1000, 7000];
      const whole = await series(rows, 60, undefined, undefined, { threshold });
      const points = await series(rows, 60, undefined, undefined, { threshold, pricedGrids: grids });
      expect(points.length).toBe(whole.length);
      let unwalked = 0;
      let gridTaken = 0;
      for (const [i, point] of points.entries()) {
        const full = whole[i];
        const next = points[i + 1]?.t ?? (rows.at(-1)?.timestampMs ?? T0) + 1001;
        const taken = grids.some((step) => Math.ceil(point.t / step) * step < next);
        if (taken) gridTaken += 1;
        if (point.known && point.net === null && !taken) {
          unwalked += 1;
          for (const direction of ["aToB", "bToA"] as const) {
            expect(point.gross?.[direction] ?? threshold).toBeLessThanOrEqual(threshold);
            expect(full?.net?.[direction].perContract ?? threshold).toBeLessThanOrEqual(threshold);
          }
          expect(point).toEqual({ ...full, net: null, best: null });
        } else expect(point).toEqual(full);
      }
      expect(unwalked).toBeGreaterThan(points.length * leastUnwalked);
      expect(gridTaken).toBeGreaterThan(50);
    });
  }

  it("on a grid, each instant from every row at or before it", async () => {
    const rows = script(21, 1200);
    const points = await series(rows, 60, undefined, 1000);
    expect(points.length).toBeGreaterThan(100);
    for (const point of points) expect(point).toEqual(fromScratch(rows, point.t, 60));
  });

  it("prices nothing from a market's close on: a point at the close itself, then B unknown (`market_closed`) at every change", async () => {
    const rows = script(31, 800);
    const closedAt = (rows[400]?.timestampMs ?? T0) + 1;
    const points = await series(rows, 60, closedAt);
    expect(points.some((point) => point.t === closedAt)).toBe(true);
    const before = points.filter((point) => point.t < closedAt);
    const after = points.filter((point) => point.t >= closedAt);
    expect(before.some((point) => point.known)).toBe(true);
    expect(after.length).toBeGreaterThan(100);
    for (const point of after) {
      expect(point.known).toBe(false);
      expect(point.unknown?.b).toBe("market_closed");
      expect(point.net).toBeNull();
      expect(point.best).toBeNull();
    }
  });
});
