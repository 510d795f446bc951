import "server-only";
import { hostname } from "node:os";
import { BookStore } from "@/lib/books/book-state";
import { quotedMarketsTitled } from "@/lib/catalog/market-reads";
import { upsertCatalog } from "@/lib/catalog/store";
import type { Db } from "@/lib/db";
import { insertPriceSnapshots, type PriceSnapshot } from "@/lib/history/prices";
import type { LiveBus } from "@/lib/live/bus";
import { LivePublisher } from "@/lib/live/publisher";
import { errorFields, log } from "@/lib/log";
import { beatRun, writeSyntheticRun } from "@/lib/recorder/journal-store";
import { applyLiveRows } from "@/lib/recorder/live-rows";
import { normalizeFrame } from "@/lib/recorder/polymarket/normalize";
import type { TickRow } from "@/lib/recorder/rows";
import { insertTickRows } from "@/lib/recorder/writer";
import type { TickStores } from "@/lib/ticks";
import { recordedVenueTables } from "@/lib/ticks/published";
import { noOutcomeId } from "@/lib/recorder/kalshi/normalize";
import { ResolutionSink } from "@/lib/outcomes/sink";
import { catalogRows, DEMO_PAIR, DemoPairBooks, quoteOf } from "./pair";
import { closedMarketQuotes, pollDemoCatalog, pricesDayAgo, type DemoQuote } from "./quotes";
import { closedDemoMarkets, demoResolutionRecords } from "./resolutions";
import { demoMarketsFromCatalog, hexDigits, MockMarketSim, prng, type DemoResolution } from "./ticks";

/**
 * The demo that moves (README, "Quick start"): while `npm run demo` runs (DEMO_LIVE=true), the
 * SYNTHETIC venues keep ticking. Every mock market's simulated book and the demo pair's two books
 * go on from where the catalog's prices stand, and each change takes the path a recorded one
 * takes: venue frames, the recorders' normalizers, the tick tables (batched), the live bus (so
 * /v0/stream, /ws, the market page's live book and the pair's spread stream move), a journal run
 * of mode `synthetic` per venue (coverage labels these hours `synthetic`). Once a minute the
 * catalog is re-polled with the books' mids and 24-hour changes, and a price snapshot appended,
 * so the catalog, its sparklines and the books keep telling one story; now and then an open mock
 * market resolves (below). Mock books are published
 * under the venue `mock` (what the market page asks for); the pair under `polymarket` and `kalshi`.
 */

export interface DemoTickerOptions {
  /** Mean milliseconds between two changes of one mock market's book (default 4,000). */
  meanStepMs?: number;
  /** Milliseconds between two moves of the pair (default 2,000). */
  pairStepMs?: number;
  /** Milliseconds between catalog re-polls and price snapshots (default 60,000). */
  quoteEveryMs?: number;
  /** Milliseconds between inserts of the rows written (default 2,000). */
  flushEveryMs?: number;
  /** Milliseconds between two live resolutions of an open mock market (default 20 minutes; 0: none). */
  resolveEveryMs?: number;
  /** Milliseconds a market's walk heads to its drawn result before it closes (default 10 minutes). */
  resolveDriftMs?: number;
}

export interface DemoTicker {
  /** Rows written so far (both tables), for tests and the log. */
  readonly rows: number;
  stop(): Promise<void>;
}

const BOOK_EVERY_MS = 15 * 60_000;

/** A journal run of mode `synthetic` for one venue, beating while the ticker runs. */
async function openRun(db: Db, venue: "polymarket" | "kalshi", assets: readonly string[], now: number): Promise<string> {
  return writeSyntheticRun(db, {
    venue,
    host: hostname(),
    pid: process.pid,
    startedAt: new Date(now),
    beatAt: new Date(now),
    counters: { synthetic: true, live: true },
    incidents: [{ kind: "assets_added", startedAt: new Date(now), assets, message: "SYNTHETIC live demo (npm run demo): not recorded from a venue", detail: { synthetic: true } }],
  });
}

/** The demo pair's YES prices in the catalog now (the live pair goes on from them). */
async function pairPrices(db: Db): Promise<{ polymarket: number; kalshi: number } | undefined> {
  const rows = await quotedMarketsTitled(db, DEMO_PAIR.title);
  const yes = (venue: string) => rows.find((row) => row.venue === venue)?.outcomes[0]?.price;
  const polymarket = yes("polymarket");
  const kalshi = yes("kalshi");
  return polymarket === undefined || kalshi === undefined ? undefined : { polymarket, kalshi };
}

export async function startDemoTicker(db: Db, stores: TickStores, bus: LiveBus, options: DemoTickerOptions = {}): Promise<DemoTicker> {
  const meanStepMs = options.meanStepMs ?? 4_000;
  const pairStepMs = options.pairStepMs ?? 2_000;
  const random = prng(Date.now() % 0x7fffffff);
  const hex = hexDigits(random);
  const pending = { polymarket: [] as TickRow[], kalshi: [] as TickRow[] };
  let written = 0;
  let stopped = false;

  // Mock books under the venue `mock`; the pair's under its venues. Each publisher answers snapshot requests from its books.
  const publishers = { mock: new LivePublisher(bus, "mock"), polymarket: new LivePublisher(bus, "polymarket"), kalshi: new LivePublisher(bus, "kalshi") };
  const books = { mock: new BookStore(), polymarket: new BookStore(), kalshi: new BookStore() };
  for (const venue of ["mock", "polymarket", "kalshi"] as const) {
    publishers[venue].attach({ isRecording: (assetId) => books[venue].get(assetId) !== undefined, book: (assetId) => books[venue].get(assetId) });
  }
  const take = (venue: keyof typeof books, table: "polymarket" | "kalshi", rows: TickRow[]) => {
    pending[table].push(...rows);
    applyLiveRows(books[venue], publishers[venue], rows);
  };

  const now = Date.now();
  const catalogMarkets = await demoMarketsFromCatalog(db, "mock");
  // A market the demo closed (docs/outcomes.md, "The offline demo") never trades again: its quote stays the close's.
  const closed = await closedDemoMarkets(db, "mock", catalogMarkets);
  const demoMarkets = catalogMarkets.filter((market) => !closed.has(market.conditionId));
  const closedMarkets = catalogMarkets.filter((market) => closed.has(market.conditionId));
  const sims = demoMarkets.map(
    (market) => new MockMarketSim(market, random, (frame, ts) => take("mock", "polymarket", normalizeFrame(JSON.stringify(frame), ts + 5).rows), hex),
  );
  const pairStart = await pairPrices(db);
  const pair = new DemoPairBooks((venue, rows) => take(venue, venue, rows));
  const runs: string[] = [];
  const mockAssets = sims.flatMap((sim) => [sim.yes, sim.no]);
  const pairAssets = { polymarket: [DEMO_PAIR.polymarket.yes, DEMO_PAIR.polymarket.no], kalshi: [DEMO_PAIR.kalshi.ticker, noOutcomeId(DEMO_PAIR.kalshi.ticker)] };
  runs.push(await openRun(db, "polymarket", [...mockAssets, ...(pairStart === undefined ? [] : pairAssets.polymarket)], now));
  if (pairStart !== undefined) runs.push(await openRun(db, "kalshi", pairAssets.kalshi, now));

  // Every book starts with a snapshot, as a recorder's subscription does.
  for (const sim of sims) await sim.snapshot(now);
  let fair = pairStart === undefined ? 50 : pairStart.polymarket * 100;
  const pairOffset = pairStart === undefined ? 0 : Math.round((pairStart.kalshi - pairStart.polymarket) * 100);
  let pairMids = { polymarket: fair, kalshi: fair + pairOffset };
  if (pairStart !== undefined) {
    const first = pair.quote(fair, pairOffset, random);
    pairMids = first.mids;
    pair.snapshotBoth(first, now);
  }

  const timers: NodeJS.Timeout[] = [];
  const every = (ms: number, work: () => Promise<void> | void) => {
    let running = false;
    const timer = setInterval(() => {
      if (running || stopped) return;
      running = true;
      void (async () => work())()
        .catch((error: unknown) => log.warn("synthetic demo ticker step failed", { ...errorFields(error) }))
        .finally(() => {
          running = false;
        });
    }, ms);
    timer.unref();
    timers.push(timer);
  };

  // Mock books: each market changes on its own Poisson clock (mean `meanStepMs`), a snapshot every 15 minutes; one closed live never moves again.
  const closedNow = new Set<number>();
  const nextStep = sims.map(() => now + random() * meanStepMs);
  const nextBook = sims.map(() => now + BOOK_EVERY_MS);
  every(250, async () => {
    const t = Date.now();
    for (const [i, sim] of sims.entries()) {
      if (closedNow.has(i) || (nextStep[i] ?? Infinity) > t) continue;
      if ((nextBook[i] ?? Infinity) <= t) {
        await sim.snapshot(t);
        nextBook[i] = t + BOOK_EVERY_MS;
      } else await sim.step(t);
      nextStep[i] = t + 1 + -Math.log(1 - random()) * meanStepMs;
    }
  });

  // The pair: one fair value walks, both venues quote around it, Kalshi now and then runs ahead for a few minutes.
  let pairPricedAt = 0;
  let pairStampedThrough = now;
  let dislocationUntil = 0;
  let dislocation = 0;
  let nextDislocation = now + (10 + random() * 20) * 60_000;
  let nextPairBook = now + BOOK_EVERY_MS;
  if (pairStart !== undefined) {
    every(pairStepMs, () => {
      // A step's changes are stamped one a millisecond, after the last step's and after the last
      // pricing's instant: the books at a price's instant are exactly the books it was read from.
      const t = Math.max(Date.now(), pairStampedThrough + 1, pairPricedAt + 1);
      fair = Math.min(85, Math.max(15, fair + (random() - 0.5) * 1.2));
      if (t >= nextDislocation) {
        dislocation = 5 + Math.floor(random() * 4);
        dislocationUntil = t + (2 + random() * 5) * 60_000;
        nextDislocation = t + (20 + random() * 40) * 60_000;
      }
      const next = pair.quote(fair, t < dislocationUntil ? dislocation : 0, random);
      pairMids = next.mids;
      if (t >= nextPairBook) {
        pair.snapshotBoth(next, t);
        nextPairBook = t + BOOK_EVERY_MS;
        pairStampedThrough = t;
      } else pairStampedThrough = Math.max(pair.movePoly(next.polyBids, next.polyAsks, t), pair.moveKalshi(next.yes, next.no, t));
    });
  }

  const flush = async () => {
    for (const table of ["polymarket", "kalshi"] as const) {
      const rows = pending[table];
      if (rows.length === 0) continue;
      pending[table] = [];
      await insertTickRows(stores.writer, rows, recordedVenueTables[table]);
      written += rows.length;
    }
  };
  every(options.flushEveryMs ?? 2_000, flush);

  // The catalog and price history from the same books: quotes, a snapshot per outcome, the runs' beat.
  const quote = async () => {
    // The pair is priced from its books as they stand at t, the instant written as its price's: at
    // the earliest the last change of its last step (a few milliseconds on), and read before the
    // awaits below, during which a step may move them.
    const t = Math.max(Date.now(), pairStampedThrough);
    const mids = pairMids;
    pairPricedAt = t;
    const prices = sims.flatMap((sim, i) => (closedNow.has(i) ? [] : sim.prices(t)));
    const dayAgo = await pricesDayAgo(stores, [...prices.map((p) => p.outcomeId), DEMO_PAIR.polymarket.yes, DEMO_PAIR.kalshi.ticker], t);
    const quotes = new Map<string, DemoQuote>();
    for (const p of prices) quotes.set(p.outcomeId, { price: Math.round(p.price * 10_000) / 10_000, change24h: Math.round((p.price - (dayAgo.get(p.outcomeId) ?? p.price)) * 10_000) / 10_000 });
    for (const [outcomeId, frozen] of await closedMarketQuotes(stores, closedMarkets, t)) quotes.set(outcomeId, frozen);
    const snapshots: PriceSnapshot[] = prices.flatMap((p) => (p.market.marketId === undefined ? [] : [{ atMs: t, venue: "mock", marketId: p.market.marketId, outcomeId: p.outcomeId, price: p.price, bestBid: p.bestBid, bestAsk: p.bestAsk, volume24h: null }]));
    await pollDemoCatalog(db, quotes);
    if (pairStart !== undefined) {
      const cents = (outcome: string, mid: number) => (dayAgo.get(outcome) ?? mid / 100) * 100;
      const pairEvents = catalogRows(t, { polymarket: quoteOf(mids.polymarket, cents(DEMO_PAIR.polymarket.yes, mids.polymarket)), kalshi: quoteOf(mids.kalshi, cents(DEMO_PAIR.kalshi.ticker, mids.kalshi)) });
      await upsertCatalog(db, pairEvents);
      for (const event of pairEvents) {
        for (const market of event.markets) {
          for (const outcome of market.outcomes) snapshots.push({ atMs: t, venue: market.venue, marketId: market.id, outcomeId: outcome.outcomeId, price: outcome.price, bestBid: null, bestAsk: null, volume24h: null });
        }
      }
    }
    await insertPriceSnapshots(stores, snapshots);
  };
  every(options.quoteEveryMs ?? 60_000, quote);

  // Now and then an open mock market resolves, by the history's rule (docs/outcomes.md, "The offline
  // demo"): the result is drawn at the market's own odds, its walk heads there for resolveDriftMs,
  // then it closes and its YES mid at the close decides. Its statements (closed, then determined and
  // settled as their times come) go through the outcomes' sink, so /v0/stream and /ws see them. The
  // first market (the most traded, the README's examples') and half of those open at start stay open.
  const resolveEveryMs = options.resolveEveryMs ?? 20 * 60_000;
  const driftMs = options.resolveDriftMs ?? 10 * 60_000;
  const keepOpen = Math.ceil(sims.length / 2);
  const heading = new Map<number, { decidedAtMs: number; midAtDecision: number; closeAtMs: number }>();
  const resolved: DemoResolution[] = [];
  let statedUpTo = 0;
  const sink = new ResolutionSink(db, stores.writer, bus);
  if (resolveEveryMs > 0) {
    every(resolveEveryMs, () => {
      const t = Date.now();
      const open = [...sims.keys()].filter((i) => i > 0 && !closedNow.has(i) && !heading.has(i));
      if (open.length + 1 <= keepOpen) return;
      const i = open[Math.floor(random() * open.length)];
      const sim = i === undefined ? undefined : sims[i];
      if (i === undefined || sim === undefined) return;
      const mid = sim.mid();
      sim.resolveTowards(random() < mid);
      heading.set(i, { decidedAtMs: t, midAtDecision: mid, closeAtMs: t + driftMs });
    });
    every(Math.min(resolveEveryMs, 15_000), async () => {
      const t = Date.now();
      for (const [i, plan] of heading) {
        const sim = sims[i];
        if (sim === undefined || plan.closeAtMs > t) continue;
        heading.delete(i);
        closedNow.add(i);
        const midAtClose = sim.mid();
        const result = midAtClose > 0.5 ? "yes" : midAtClose < 0.5 ? "no" : "split";
        resolved.push({ market: sim.market, closedAtMs: t, decidedAtMs: plan.decidedAtMs, midAtDecision: plan.midAtDecision, midAtClose, result });
        closedMarkets.push({ ...sim.market, yesPrice: midAtClose });
      }
      // The statements whose time came since the last pass (closed now; determined, settled later).
      const due = demoResolutionRecords("mock", resolved, t).filter((record) => record.venueTime.getTime() > statedUpTo);
      if (due.length > 0) await sink.record(due);
      statedUpTo = t; // not before: a failed write is tried again at the next pass
    });
  }
  const beat = async () => {
    for (const id of runs) await beatRun(db, id, new Date());
  };
  every(15_000, beat);
  log.info("synthetic demo venues ticking", { mockMarkets: sims.length, pair: pairStart !== undefined, live: "/v0/stream, /ws" });

  return {
    get rows() {
      return written;
    },
    async stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      for (const publisher of Object.values(publishers)) publisher.detach();
      await flush();
      await sink.flushed();
      const at = new Date();
      for (const id of runs) await beatRun(db, id, at, true);
    },
  };
}
