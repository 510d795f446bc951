import "server-only";
import { SYNTHETIC_STATUS } from "@/lib/catalog/assets";
import { eventUuid, marketUuid, syntheticContractAddress } from "@/lib/catalog/ids";
import type { NormalizedEvent } from "@/lib/catalog/normalize";
import { upsertCatalog } from "@/lib/catalog/store";
import type { Db } from "@/lib/db";
import { keepCurrentMatch } from "@/lib/matching/pair-store";
import { prng } from "./ticks";
import { writeSyntheticRun, type SyntheticIncident } from "@/lib/recorder/journal-store";
import { KalshiNormalizer, noOutcomeId } from "@/lib/recorder/kalshi/normalize";
import { normalizeFrame } from "@/lib/recorder/polymarket/normalize";
import type { TickRow } from "@/lib/recorder/rows";
import { insertTickRows } from "@/lib/recorder/writer";
import { recordedVenueTables } from "@/lib/ticks/published";
import type { TickStores } from "@/lib/ticks";
import { insertPriceSnapshots, type PriceSnapshot } from "@/lib/history/prices";

/**
 * SYNTHETIC cross-venue pair for offline demos (docs/spreads.md, "Demo"): one Polymarket and one
 * Kalshi market asking the same question, in the catalog and stored as an identity match, with
 * synthetic order books in both venues' tick tables. The frames are built in each venue's wire
 * format and go through the recorders' own normalizers, so the rows are exactly what recording
 * would store; both books stay uncrossed, the two venues' prices follow one walk with noise, and
 * every few hours the Kalshi book runs ahead for a few minutes, long and far enough for a spread
 * after both venues' fees. A synthetic journal run per venue (mode `synthetic`, `kalshi: synthetic`,
 * as demo ticks mark theirs: coverage labels the hours `synthetic`, /v0/status never shows them)
 * says which assets the history covers, with one 30-minute lost connection on the Kalshi side: the
 * spread is unknown there, as for any recording gap. Everything is marked synthetic: titles, ids, run modes, the
 * match's reasoning, the markets' status (`synthetic`: no recorder follows them). Never run by the
 * service itself; `admin demo-ticks` runs it.
 */

export const DEMO_PAIR = {
  polymarket: { venueMarketId: "synthetic-demo-pair", yes: "synthetic-demo-pair-yes", no: "synthetic-demo-pair-no" },
  kalshi: { ticker: "KXSYNTHDEMO-26DEC31" },
  title: "SYNTHETIC DEMO: Will the synthetic demo index close above 100 on December 31, 2026?",
  eventTitle: "SYNTHETIC DEMO index at the end of 2026",
} as const;

export interface DemoPairOptions {
  days?: number;
  now?: number;
  seed?: number;
}

export interface DemoPairResult {
  polymarketRows: number;
  kalshiRows: number;
  dislocations: number;
}

/** A book as levels in cents -> size: ten levels a side below the bid and above the ask (deeper than the largest jump, so a move never empties a side). */
type Ladder = Map<number, number>;

function ladder(best: number, step: 1 | -1, random: () => number): Ladder {
  const out: Ladder = new Map();
  for (let i = 0; i < 10; i += 1) {
    const cents = best + step * i;
    if (cents >= 1 && cents <= 99) out.set(cents, Math.round(100 + random() * 900));
  }
  return out;
}

/**
 * The new ladder keeping the sizes of the levels the book already has, and one level resized: a
 * venue's book moves a few levels at a time, not all of them at every change.
 */
function carried(next: Ladder, previous: Ladder, random: () => number): Ladder {
  for (const [cents, size] of previous) if (next.has(cents)) next.set(cents, size);
  const prices = [...next.keys()];
  const resized = prices[Math.floor(random() * prices.length)];
  if (resized !== undefined) next.set(resized, Math.round(100 + random() * 900));
  return next;
}

const dollars = (cents: number, digits = 2) => (cents / 100).toFixed(digits);

/** Each venue's YES quote as the catalog shows it: the mid of the book now and its change over 24 hours. */
export interface PairQuotes {
  polymarket: { price: number; change24h: number };
  kalshi: { price: number; change24h: number };
}

export const quoteOf = (midCents: number, dayAgoCents: number) => ({ price: midCents / 100, change24h: Math.round(midCents - dayAgoCents) / 100 });
const outcomesOf = (yes: string, no: string, quote: { price: number; change24h: number }) => [
  { outcomeId: yes, label: "Yes", price: quote.price, priceChange24h: quote.change24h },
  { outcomeId: no, label: "No", price: Math.round((1 - quote.price) * 10_000) / 10_000, priceChange24h: -quote.change24h },
];

export function catalogRows(now: number, quotes: PairQuotes): NormalizedEvent[] {
  const common = { description: "SYNTHETIC market written by `admin demo-ticks` for offline demos; it exists on no venue.", category: "Economics", volume24h: 0, volume: null, liquidity: null, openInterest: null, status: SYNTHETIC_STATUS, closed: false, resolutionDate: new Date("2026-12-31T23:59:00Z"), url: null, image: null, lastSeenAt: new Date(now) };
  const event = (venue: string, venueEventId: string, marketId: string, row: NormalizedEvent["markets"][number]): NormalizedEvent => ({
    event: { id: eventUuid(venue, venueEventId), venue, venueEventId, title: DEMO_PAIR.eventTitle, slug: venueEventId.toLowerCase(), description: common.description, category: common.category, venueCategory: common.category, tags: [], image: null, url: null, volume24h: 0, volume: null, closed: false, resolutionDate: null, lastSeenAt: new Date(now) },
    markets: [{ ...row, id: marketId, eventId: eventUuid(venue, venueEventId) }],
  });
  const poly = DEMO_PAIR.polymarket;
  const kalshi = DEMO_PAIR.kalshi.ticker;
  return [
    event("polymarket", "synthetic-demo-event", marketUuid("polymarket", poly.venueMarketId), {
      ...common,
      id: "",
      eventId: "",
      venue: "polymarket",
      venueMarketId: poly.venueMarketId,
      title: DEMO_PAIR.title,
      slug: poly.venueMarketId,
      contractAddress: syntheticContractAddress("polymarket", poly.venueMarketId),
      outcomes: outcomesOf(poly.yes, poly.no, quotes.polymarket),
      outcomeIds: [poly.yes, poly.no],
    }),
    event("kalshi", "KXSYNTHDEMO", marketUuid("kalshi", kalshi), {
      ...common,
      id: "",
      eventId: "",
      venue: "kalshi",
      venueMarketId: kalshi,
      title: DEMO_PAIR.title,
      slug: kalshi.toLowerCase(),
      contractAddress: null,
      outcomes: outcomesOf(kalshi, noOutcomeId(kalshi), quotes.kalshi),
      outcomeIds: [kalshi, noOutcomeId(kalshi)],
    }),
  ];
}

/** Keeps one current identity match of the two demo markets (the pair is stored once, A < B). */
async function storeMatch(db: Db, now: number): Promise<void> {
  const ids = [marketUuid("polymarket", DEMO_PAIR.polymarket.venueMarketId), marketUuid("kalshi", DEMO_PAIR.kalshi.ticker)].sort();
  const [a, b] = ids;
  if (a === undefined || b === undefined) return;
  await keepCurrentMatch(
    db,
    {
      marketA: a,
      marketB: b,
      relation: "identity",
      confidence: 0.99,
      reasoning: "SYNTHETIC demo pair written by admin demo-ticks: the same question on both venues, by construction.",
      engineVersion: "synthetic-demo",
    },
    new Date(now),
  );
}

/** A stopped journal run per venue over the window, with the demo assets subscribed throughout, and the Kalshi gap. */
async function writeJournal(db: Db, start: number, now: number, gap: { start: number; end: number }): Promise<void> {
  const assets = {
    polymarket: [DEMO_PAIR.polymarket.yes, DEMO_PAIR.polymarket.no],
    kalshi: [DEMO_PAIR.kalshi.ticker, noOutcomeId(DEMO_PAIR.kalshi.ticker)],
  };
  for (const venue of ["polymarket", "kalshi"] as const) {
    const gapIncident: SyntheticIncident = {
      kind: "connection_lost",
      startedAt: new Date(gap.start),
      endedAt: new Date(gap.end),
      assets: assets.kalshi,
      message: "SYNTHETIC gap: no book is known here",
      detail: { synthetic: true, gapMs: gap.end - gap.start },
    };
    await writeSyntheticRun(db, {
      venue,
      host: "synthetic",
      pid: 0,
      startedAt: new Date(start),
      beatAt: new Date(now),
      stoppedAt: new Date(now),
      counters: { synthetic: true },
      incidents: [
        { kind: "assets_added", startedAt: new Date(start), assets: assets[venue], message: "SYNTHETIC demo pair subscribed", detail: { synthetic: true } },
        ...(venue === "kalshi" ? [gapIncident] : []),
      ],
    });
  }
}

/**
 * The pair's two books and their moves, as each venue's wire frames normalized by the recorders'
 * own normalizers: the history writer drives it over days, the live demo (./live.ts) while the
 * server runs. Rows go to `onRows` per venue table.
 */
/** Both venues' ladders around one fair value, and their mids (cents). */
export interface PairQuote {
  polyBids: Ladder;
  polyAsks: Ladder;
  yes: Ladder;
  no: Ladder;
  mids: { polymarket: number; kalshi: number };
}

export class DemoPairBooks {
  readonly #onRows: (venue: "polymarket" | "kalshi", rows: TickRow[]) => void;
  readonly #kalshi = new KalshiNormalizer();
  #seq = 0;
  // Polymarket's YES book (bids, asks) in cents; its NO book mirrors it, as the venue's does.
  polyBids: Ladder = new Map();
  polyAsks: Ladder = new Map();
  // Kalshi's book as the venue keeps it: YES bids and NO bids (a NO bid at 100 − a is a YES ask at a).
  yesBids: Ladder = new Map();
  noBids: Ladder = new Map();

  constructor(onRows: (venue: "polymarket" | "kalshi", rows: TickRow[]) => void) {
    this.#onRows = onRows;
  }

  /** New ladders for both venues around one fair value (cents), Kalshi shifted by `shift` cents. */
  quote(fair: number, shift: number, random: () => number): PairQuote {
    const polyBid = Math.round(fair - 0.5 - random());
    const polyAsk = polyBid + 1 + Math.floor(random() * 2);
    const kalshiBid = Math.round(fair - 0.5 - random()) + shift;
    const kalshiAsk = kalshiBid + 1 + Math.floor(random() * 2);
    return {
      polyBids: carried(ladder(polyBid, -1, random), this.polyBids, random),
      polyAsks: carried(ladder(polyAsk, 1, random), this.polyAsks, random),
      yes: carried(ladder(kalshiBid, -1, random), this.yesBids, random),
      no: carried(ladder(100 - kalshiAsk, -1, random), this.noBids, random),
      mids: { polymarket: (polyBid + polyAsk) / 2, kalshi: (kalshiBid + kalshiAsk) / 2 },
    };
  }

  #kalshiFrame(type: string, msg: Record<string, unknown>, ts: number): void {
    this.#seq += 1;
    this.#onRows("kalshi", this.#kalshi.normalize(JSON.stringify({ type, sid: 1, seq: this.#seq, msg }), ts).rows);
  }

  /** Both books become `next` (a quote()) and each venue sends it as a snapshot, as a recorder's periodic one. */
  snapshotBoth(next: PairQuote, ts: number): void {
    this.polyBids = next.polyBids;
    this.polyAsks = next.polyAsks;
    this.yesBids = next.yes;
    this.noBids = next.no;
    this.polySnapshot(ts);
    this.kalshiSnapshot(ts);
  }

  polySnapshot(ts: number): void {
    const poly = DEMO_PAIR.polymarket;
    const side = (asset: string, bids: Ladder, asks: Ladder) => ({
      market: DEMO_PAIR_CONDITION,
      asset_id: asset,
      timestamp: String(ts),
      hash: "",
      bids: [...bids].sort((x, y) => x[0] - y[0]).map(([c, s]) => ({ price: dollars(c), size: String(s) })),
      asks: [...asks].sort((x, y) => y[0] - x[0]).map(([c, s]) => ({ price: dollars(c), size: String(s) })),
      tick_size: "0.01",
      event_type: "book",
    });
    const mirror = (levels: Ladder): Ladder => new Map([...levels].map(([c, s]) => [100 - c, s]));
    this.#onRows("polymarket", normalizeFrame(JSON.stringify([side(poly.yes, this.polyBids, this.polyAsks), side(poly.no, mirror(this.polyAsks), mirror(this.polyBids))]), ts).rows);
  }

  kalshiSnapshot(ts: number): void {
    this.#kalshiFrame(
      "orderbook_snapshot",
      {
        market_ticker: DEMO_PAIR.kalshi.ticker,
        market_id: "synthetic",
        yes_dollars_fp: [...this.yesBids].sort((x, y) => x[0] - y[0]).map(([c, s]) => [dollars(c, 4), s.toFixed(2)]),
        no_dollars_fp: [...this.noBids].sort((x, y) => x[0] - y[0]).map(([c, s]) => [dollars(c, 4), s.toFixed(2)]),
      },
      ts,
    );
  }

  /**
   * Moves Polymarket's YES book to the new ladders without ever crossing or emptying a side: first
   * the old levels the new book's best prices would cross, then the new levels, then the rest of
   * the old ones, one change a millisecond from `ts`. Returns the last timestamp used.
   */
  movePoly(bids: Ladder, asks: Ladder, ts: number): number {
    const poly = DEMO_PAIR.polymarket;
    const newBid = Math.max(...bids.keys());
    const newAsk = Math.min(...asks.keys());
    const changes: Array<{ side: "BUY" | "SELL"; cents: number; size: number }> = [];
    for (const [c] of this.polyBids) if (!bids.has(c) && c >= newAsk) changes.push({ side: "BUY", cents: c, size: 0 });
    for (const [c] of this.polyAsks) if (!asks.has(c) && c <= newBid) changes.push({ side: "SELL", cents: c, size: 0 });
    for (const [c, s] of bids) if (this.polyBids.get(c) !== s) changes.push({ side: "BUY", cents: c, size: s });
    for (const [c, s] of asks) if (this.polyAsks.get(c) !== s) changes.push({ side: "SELL", cents: c, size: s });
    for (const [c] of this.polyBids) if (!bids.has(c) && c < newAsk) changes.push({ side: "BUY", cents: c, size: 0 });
    for (const [c] of this.polyAsks) if (!asks.has(c) && c > newBid) changes.push({ side: "SELL", cents: c, size: 0 });
    const liveBids = new Map(this.polyBids);
    const liveAsks = new Map(this.polyAsks);
    // One level a frame, 1 ms apart: the venue states its best prices after each change, and rows of
    // one millisecond replay in the table's hash order, not in the order they were sent.
    const rows: TickRow[] = [];
    changes.forEach((change, i) => {
      const levels = change.side === "BUY" ? liveBids : liveAsks;
      if (change.size === 0) levels.delete(change.cents);
      else levels.set(change.cents, change.size);
      const bestBid = Math.max(0, ...liveBids.keys());
      const bestAsk = liveAsks.size === 0 ? 100 : Math.min(...liveAsks.keys());
      const entries = [
        { asset_id: poly.yes, price: dollars(change.cents), size: String(change.size), side: change.side, hash: "", best_bid: dollars(bestBid), best_ask: dollars(bestAsk) },
        { asset_id: poly.no, price: dollars(100 - change.cents), size: String(change.size), side: change.side === "BUY" ? "SELL" : "BUY", hash: "", best_bid: dollars(100 - bestAsk), best_ask: dollars(100 - bestBid) },
      ];
      rows.push(...normalizeFrame(JSON.stringify({ market: DEMO_PAIR_CONDITION, price_changes: entries, timestamp: String(ts + i), event_type: "price_change" }), ts + i).rows);
    });
    this.polyBids = bids;
    this.polyAsks = asks;
    this.#onRows("polymarket", rows);
    return ts + Math.max(0, changes.length - 1);
  }

  /**
   * Moves Kalshi's book with signed deltas in the same order (a YES bid crosses a NO bid when the two
   * sum to 100 or more), one a millisecond from `ts`. Returns the last timestamp used.
   */
  moveKalshi(yes: Ladder, no: Ladder, ts: number): number {
    const bestYes = Math.max(...yes.keys());
    const bestNo = Math.max(...no.keys());
    const deltas: Array<{ side: "yes" | "no"; cents: number; delta: number }> = [];
    const sides = [["yes", this.yesBids, yes, bestNo], ["no", this.noBids, no, bestYes]] as const;
    for (const [side, before, after, otherBest] of sides) for (const [c, s] of before) if (!after.has(c) && c + otherBest >= 100) deltas.push({ side, cents: c, delta: -s });
    for (const [side, before, after] of sides) for (const [c, s] of after) if ((before.get(c) ?? 0) !== s) deltas.push({ side, cents: c, delta: s - (before.get(c) ?? 0) });
    for (const [side, before, after, otherBest] of sides) for (const [c, s] of before) if (!after.has(c) && c + otherBest < 100) deltas.push({ side, cents: c, delta: -s });
    deltas.forEach((d, i) => this.#kalshiFrame("orderbook_delta", { market_ticker: DEMO_PAIR.kalshi.ticker, price_dollars: dollars(d.cents, 4), delta_fp: d.delta.toFixed(2), side: d.side, ts_ms: ts + i }, ts + i));
    this.yesBids = yes;
    this.noBids = no;
    return ts + Math.max(0, deltas.length - 1);
  }
}

/** The demo pair's Polymarket condition id (synthetic: no venue has it). */
export const DEMO_PAIR_CONDITION = syntheticContractAddress("polymarket", DEMO_PAIR.polymarket.venueMarketId);

/**
 * Writes the demo pair: catalog, match, journal and both venues' books for the last `days` days.
 * Idempotent in the catalog and the match; rows written twice collapse in the tick tables.
 */
export async function writeDemoPair(db: Db, stores: TickStores, options: DemoPairOptions = {}): Promise<DemoPairResult> {
  const { writer } = stores;
  const days = Math.min(options.days ?? 7, 31);
  const now = options.now ?? Date.now();
  const start = now - days * 86_400_000;
  const random = prng(options.seed ?? 7);
  // Listed first (the books' rows name these markets), priced once the books are written.
  await upsertCatalog(db, catalogRows(now, { polymarket: { price: 0.5, change24h: 0 }, kalshi: { price: 0.5, change24h: 0 } }));
  await storeMatch(db, now);
  const gap = { start: now - 26 * 3_600_000, end: now - 26 * 3_600_000 + 30 * 60_000 };
  await writeJournal(db, start, now, gap);

  let polyRows: TickRow[] = [];
  let kalshiRows: TickRow[] = [];
  const result: DemoPairResult = { polymarketRows: 0, kalshiRows: 0, dislocations: 0 };
  const books = new DemoPairBooks((venue, rows) => {
    if (venue === "polymarket") polyRows.push(...rows);
    else kalshiRows.push(...rows);
  });
  const flush = async (force: boolean) => {
    if (force || polyRows.length >= 20_000) {
      result.polymarketRows += polyRows.length;
      if (polyRows.length > 0) await insertTickRows(writer, polyRows, recordedVenueTables.polymarket);
      polyRows = [];
    }
    if (force || kalshiRows.length >= 20_000) {
      result.kalshiRows += kalshiRows.length;
      if (kalshiRows.length > 0) await insertTickRows(writer, kalshiRows, recordedVenueTables.kalshi);
      kalshiRows = [];
    }
  };

  // One fair value (cents) walks; each venue quotes around it with a 1–3 cent spread.
  let fair = 40 + random() * 20;
  // Each venue's YES mid (cents) at the last step and at the last step a day before the end: the catalog's quotes.
  const mids = { polymarket: 0, kalshi: 0 };
  const dayAgo = { polymarket: 0, kalshi: 0 };
  let dayAgoSet = false;
  let nextSnapshot = start;
  // The catalog's price history of both markets, every 10 minutes (sparklines, /v0/markets/{id}/prices).
  const snapshots: PriceSnapshot[] = [];
  let nextPrice = start;
  const priceIds = { polymarket: marketUuid("polymarket", DEMO_PAIR.polymarket.venueMarketId), kalshi: marketUuid("kalshi", DEMO_PAIR.kalshi.ticker) };
  const sample = (atMs: number) => {
    for (const [venue, yes, no] of [["polymarket", DEMO_PAIR.polymarket.yes, DEMO_PAIR.polymarket.no], ["kalshi", DEMO_PAIR.kalshi.ticker, noOutcomeId(DEMO_PAIR.kalshi.ticker)]] as const) {
      const mid = mids[venue] / 100;
      snapshots.push({ atMs, venue, marketId: priceIds[venue], outcomeId: yes, price: mid, bestBid: null, bestAsk: null, volume24h: null });
      snapshots.push({ atMs, venue, marketId: priceIds[venue], outcomeId: no, price: Math.round((1 - mid) * 10_000) / 10_000, bestBid: null, bestAsk: null, volume24h: null });
    }
  };
  let dislocationUntil = 0;
  let dislocation = 0;
  let nextDislocation = start + (1 + random() * 3) * 3_600_000;
  for (let ts = start; ts < now; ts += 2_000 + Math.floor(random() * 30_000)) {
    fair = Math.min(85, Math.max(15, fair + (random() - 0.5) * 1.2));
    if (ts >= nextDislocation) {
      dislocation = 5 + Math.floor(random() * 4);
      dislocationUntil = ts + (2 + random() * 10) * 60_000;
      nextDislocation = ts + (2 + random() * 4) * 3_600_000;
      result.dislocations += 1;
    }
    const shift = ts < dislocationUntil ? dislocation : 0;
    const next = books.quote(fair, shift, random);
    if (ts > now - 86_400_000 && !dayAgoSet) {
      dayAgo.polymarket = mids.polymarket;
      dayAgo.kalshi = mids.kalshi;
      dayAgoSet = true;
    }
    // Samples before this step see the books as the previous step left them.
    while (nextPrice <= ts && mids.polymarket > 0) {
      sample(nextPrice);
      nextPrice += 600_000;
    }
    mids.polymarket = next.mids.polymarket;
    mids.kalshi = next.mids.kalshi;
    if (ts >= nextSnapshot) {
      books.snapshotBoth(next, ts);
      nextSnapshot = ts + 15 * 60_000;
    } else {
      books.movePoly(next.polyBids, next.polyAsks, ts);
      // The recorder was disconnected from Kalshi: nothing recorded, and a snapshot when it resubscribed.
      if (ts >= gap.start && ts < gap.end) {
        books.yesBids = next.yes;
        books.noBids = next.no;
        continue;
      }
      if (ts - 32_000 < gap.end && ts >= gap.end) {
        books.yesBids = next.yes;
        books.noBids = next.no;
        books.kalshiSnapshot(ts);
      } else books.moveKalshi(next.yes, next.no, ts);
    }
    await flush(false);
  }
  await flush(true);
  sample(now);
  await insertPriceSnapshots(stores, snapshots);
  if (!dayAgoSet) {
    dayAgo.polymarket = mids.polymarket;
    dayAgo.kalshi = mids.kalshi;
  }
  await upsertCatalog(db, catalogRows(now, { polymarket: quoteOf(mids.polymarket, dayAgo.polymarket), kalshi: quoteOf(mids.kalshi, dayAgo.kalshi) }));
  return result;
}
