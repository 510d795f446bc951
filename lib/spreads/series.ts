import { BookStore, type AssetBook, type BookLevel, type BookRow } from "@/lib/books/book-state";
import type { Span } from "@/lib/history/coverage-model";
import { feeKey, marketFeeAt, scheduleChanges, type FeeSubject, type MarketFee } from "./fees";
import type { SpreadPoint, UnknownReason } from "./shapes";
import { availableSize, executable, walkLeg, type Leg } from "./spread-math";

/**
 * Two recorded books on one clock (docs/spreads.md, "One clock"): both sides' rows, each in the
 * tick table's replay order, merged by venue time and replayed through the shared book state
 * (lib/books), a point priced at every instant either book changed (or on a grid). A point is
 * priced only where both books are known; elsewhere it says which book is not and why. Nothing
 * is interpolated across a gap: a book rebuilt across a recording gap keeps levels that may have
 * changed, so it counts as unknown from the gap until the venue's next snapshot.
 *
 * Streaming: rows are pulled one at a time from both sides and nothing of the window is kept but
 * the two books, so memory does not grow with the window.
 */

/**
 * How long before the start of a recorded span a snapshot may be stamped and still count as
 * taken for it: Polymarket stamps a snapshot with the venue's time, the journal the recorder's;
 * the recorder opens a `lag` incident past this difference (lib/recorder/journal.ts). Never
 * earlier than the moment the recording before the span stopped: see `stretchesOf`.
 */
export const SNAPSHOT_SLACK_MS = 10_000;

/** A recorded stretch of one side, and the instant after which a snapshot must be stamped to open it. */
export interface Stretch extends Span {
  /** The book is known in the stretch only from a snapshot stamped after this instant (exclusive). */
  snapshotAfter: number;
}

/**
 * The gap rule, one for both venues (docs/spreads.md, "One clock"): a book rebuilt across a gap
 * keeps levels that may have changed during it, so a recorded stretch is known only from a
 * snapshot stamped after the recording before it stopped (a lost connection's start, a run's or a
 * subscription's end) and at most SNAPSHOT_SLACK_MS before the stretch began. `spans` are sorted
 * and merged (coverage-model's `union`), and must include every stretch that ended after the
 * replay's first snapshot: then every stretch whose rule can matter is known, whatever the window.
 */
export function stretchesOf(spans: readonly Span[]): Stretch[] {
  let stoppedAt = Number.NEGATIVE_INFINITY;
  return spans.map((span) => {
    const stretch = { start: span.start, end: span.end, snapshotAfter: Math.max(stoppedAt, span.start - SNAPSHOT_SLACK_MS - 1) };
    stoppedAt = span.end;
    return stretch;
  });
}

export interface SideInput {
  /** The outcome (asset id) whose book this side is. */
  outcomeId: string;
  fee: FeeSubject;
  /** The asset's book rows in replay order, from a snapshot at or before the window's start. */
  rows: AsyncIterable<BookRow>;
  /**
   * When the asset was recorded (the journal's coverage), sorted, merged, from the journal read
   * from the replay's first snapshot (or `since`, if earlier): see `stretchesOf`.
   */
  spans: readonly Span[];
}

export interface SeriesWindow {
  since: number;
  until: number;
  /** Grid step in ms; undefined: a point at every change. */
  step?: number;
  /** Contracts walked for the executable spread. */
  size: number;
  /** Edge per contract above which `available` counts contracts. */
  threshold: number;
  /** In change mode, also a point at `since` itself (the state the window opens with). */
  initial: boolean;
}

/** Levels a side read for a point unless a walk needs more. */
const LEVELS_READ = 8;

const sumSizes = (levels: readonly BookLevel[]) => levels.reduce((total, level) => total + level.size, 0);

export interface Levels {
  bids: BookLevel[];
  asks: BookLevel[];
}

/** What pricing a point needs of one side's book at an instant (the series' replayed book, or a live one: lib/spreads/live.ts). */
export interface PriceableBook {
  unknownAt(t: number): UnknownReason | null;
  /** Best levels, best first: the top ones, or (`full`) the whole book. */
  levels(full?: boolean): Levels;
  feeAt(t: number): MarketFee;
  /** Buying `size` at the asks and selling it at the bids. */
  legs(size: number, fee: MarketFee): { buy: Leg; sell: Leg };
}

/** One side's book, coverage and cached walks while the series advances. */
class Side implements PriceableBook {
  readonly #store = new BookStore();
  readonly #input: SideInput;
  readonly #iterator: AsyncIterator<BookRow>;
  #head: BookRow | undefined;
  #done = false;
  #book: AssetBook | undefined;
  #lastSnapshot = Number.NEGATIVE_INFINITY;
  #version = 0;
  #spanIndex = 0;
  #levels: { version: number; depth: number; levels: Levels } | undefined;
  #legs: { version: number; fee: MarketFee; buy: Leg; sell: Leg } | undefined;
  #fee: { until: number; fee: MarketFee } | undefined;
  readonly #feeChanges: number[];
  readonly #stretches: Stretch[];

  constructor(input: SideInput, window: SeriesWindow) {
    this.#input = input;
    this.#stretches = stretchesOf(input.spans);
    this.#iterator = input.rows[Symbol.asyncIterator]();
    this.#feeChanges = scheduleChanges(input.fee, window.since - 1, window.until);
  }

  /** The next row's time, reading it when needed; undefined when the side has no more rows. */
  async headTime(): Promise<number | undefined> {
    if (this.#head === undefined && !this.#done) await this.#fill();
    return this.#head?.timestampMs;
  }

  async #fill(): Promise<void> {
    const next = await this.#iterator.next();
    if (next.done === true) this.#done = true;
    else this.#head = next.value;
  }

  /** Applies every row with time <= `t`. */
  async applyThrough(t: number): Promise<void> {
    for (;;) {
      if (this.#head === undefined) {
        if (this.#done) return;
        await this.#fill();
        continue;
      }
      const row = this.#head;
      if (row.timestampMs > t) return;
      this.#head = undefined;
      const book = this.#store.apply(row);
      if (book === undefined || book.assetId !== this.#input.outcomeId) continue;
      this.#book = book;
      this.#version += 1;
      if (row.eventType === "book") this.#lastSnapshot = row.timestampMs;
    }
  }

  /** Changes with every row applied to the book: a point priced at the same versions of both books is priced the same. */
  get version(): number {
    return this.#version;
  }

  async close(): Promise<void> {
    if (!this.#done) await this.#iterator.return?.();
    this.#done = true;
  }

  /** Coverage boundaries after `t`: a point is due where the book becomes known or unknown. */
  nextBoundary(t: number): number | undefined {
    let next: number | undefined;
    for (const span of this.#stretches) {
      for (const edge of [span.start, span.end]) if (edge > t && (next === undefined || edge < next)) next = edge;
      if (span.start > t) break;
    }
    for (const change of this.#feeChanges) if (change > t && (next === undefined || change < next)) next = change;
    return next;
  }

  /** Why the book is not known at `t`, or null when it is. Times only move forward. */
  unknownAt(t: number): UnknownReason | null {
    const stretches = this.#stretches;
    while (this.#spanIndex < stretches.length && (stretches[this.#spanIndex]?.end ?? 0) <= t) this.#spanIndex += 1;
    const stretch = stretches[this.#spanIndex];
    if (stretch === undefined || stretch.start > t) return "not_recorded";
    if (this.#book === undefined || !this.#book.hasSnapshot) return "no_book";
    if (this.#lastSnapshot <= stretch.snapshotAfter) return "awaiting_snapshot";
    if (!this.#book.inSync) return "out_of_sync";
    return null;
  }

  /**
   * The book's best levels: the first LEVELS_READ a side, which a walk of a usual size never gets
   * past; the whole book only when it did (`full`).
   */
  levels(full = false): Levels {
    const depth = full ? Number.POSITIVE_INFINITY : LEVELS_READ;
    if (this.#levels === undefined || this.#levels.version !== this.#version || this.#levels.depth < depth) {
      const view = this.#book?.view(depth);
      this.#levels = { version: this.#version, depth, levels: { bids: view?.bids ?? [], asks: view?.asks ?? [] } };
    }
    return this.#levels.levels;
  }

  /** Which fee model is in force at `t` (changes only at a schedule change). */
  feeKey(t: number): string {
    return feeKey(this.feeAt(t));
  }

  feeAt(t: number): MarketFee {
    if (this.#fee === undefined || t >= this.#fee.until) {
      const until = this.#feeChanges.find((change) => change > t) ?? Number.POSITIVE_INFINITY;
      this.#fee = { until, fee: marketFeeAt(this.#input.fee, t) };
    }
    return this.#fee.fee;
  }

  /** Buying `size` at the asks and selling it at the bids, cached until the book or the fee changes. */
  legs(size: number, fee: MarketFee): { buy: Leg; sell: Leg } {
    if (this.#legs === undefined || this.#legs.version !== this.#version || this.#legs.fee !== fee) {
      let { bids, asks } = this.levels();
      if ((bids.length === LEVELS_READ && sumSizes(bids) < size) || (asks.length === LEVELS_READ && sumSizes(asks) < size)) ({ bids, asks } = this.levels(true));
      this.#legs = { version: this.#version, fee, buy: walkLeg(asks, size, fee, "buy"), sell: walkLeg(bids, size, fee, "sell") };
    }
    return this.#legs;
  }

}

/** Contracts to buy on `buyer` and sell on `seller` above the threshold: from the levels read, the whole books only when the walk used them all. */
function availableBetween(buyer: PriceableBook, seller: PriceableBook, buyFee: MarketFee, sellFee: MarketFee, threshold: number): number {
  const asks = buyer.levels().asks;
  const bids = seller.levels().bids;
  const size = availableSize(asks, bids, buyFee, sellFee, threshold);
  if ((asks.length < LEVELS_READ || size < sumSizes(asks)) && (bids.length < LEVELS_READ || size < sumSizes(bids))) return size;
  return availableSize(buyer.levels(true).asks, seller.levels(true).bids, buyFee, sellFee, threshold);
}

function quoteOf(levels: Levels): NonNullable<SpreadPoint["a"]> {
  const bid = levels.bids[0];
  const ask = levels.asks[0];
  return { bid: bid?.price ?? null, bidSize: bid?.size ?? 0, ask: ask?.price ?? null, askSize: ask?.size ?? 0 };
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;
const grossOf = (bid: number | null, ask: number | null) => (bid === null || ask === null ? null : round6(bid - ask));

/** The last point priced, reused for a later instant at which neither book nor fee nor coverage changed (a grid over a quiet book). */
interface Priced {
  key: string;
  point: SpreadPoint;
}

function pricePointOnce(t: number, a: Side, b: Side, window: SeriesWindow, last: { priced?: Priced }): SpreadPoint {
  const key = `${a.version}:${b.version}:${a.unknownAt(t)}:${b.unknownAt(t)}:${a.feeKey(t)}:${b.feeKey(t)}`;
  if (last.priced?.key === key) return { ...last.priced.point, t };
  const point = pricePair(t, a, b, window.size, window.threshold);
  last.priced = { key, point };
  return point;
}

/** The point of a pair at `t`: both books' best levels, gross both ways, the executable spread for `size` after fees; unknown where either book is. */
export function pricePair(t: number, a: PriceableBook, b: PriceableBook, size: number, threshold: number): SpreadPoint {
  const unknownA = a.unknownAt(t);
  const unknownB = b.unknownAt(t);
  const quoteA = unknownA === null ? quoteOf(a.levels()) : null;
  const quoteB = unknownB === null ? quoteOf(b.levels()) : null;
  if (quoteA === null || quoteB === null) {
    return { t, known: false, unknown: { a: unknownA, b: unknownB }, a: quoteA, b: quoteB, gross: null, net: null, best: null, available: null };
  }
  const feeA = a.feeAt(t);
  const feeB = b.feeAt(t);
  const legsA = a.legs(size, feeA);
  const legsB = b.legs(size, feeB);
  const aToB = executable(legsA.buy, legsB.sell, size);
  const bToA = executable(legsB.buy, legsA.sell, size);
  const gross = { aToB: grossOf(quoteB.bid, quoteA.ask), bToA: grossOf(quoteA.bid, quoteB.ask) };
  const nets = [aToB.perContract, bToA.perContract].filter((value): value is number => value !== null);
  const available = {
    aToB: gross.aToB !== null && gross.aToB > threshold ? availableBetween(a, b, feeA, feeB, threshold) : 0,
    bToA: gross.bToA !== null && gross.bToA > threshold ? availableBetween(b, a, feeB, feeA, threshold) : 0,
  };
  return { t, known: true, unknown: null, a: quoteA, b: quoteB, gross, net: { aToB, bToA }, best: nets.length === 0 ? null : Math.max(...nets), available };
}

/** The series of the window, oldest first: every change (and coverage boundary) of either book, or one point per grid instant. */
export async function* priceSeries(inputA: SideInput, inputB: SideInput, window: SeriesWindow): AsyncGenerator<SpreadPoint> {
  const a = new Side(inputA, window);
  const b = new Side(inputB, window);
  try {
    yield* walk(a, b, window);
  } finally {
    // A caller that stops early (a full page) ends both row streams, and with them their queries.
    await Promise.all([a.close(), b.close()]);
  }
}

async function* walk(a: Side, b: Side, window: SeriesWindow): AsyncGenerator<SpreadPoint> {
  const memo: { priced?: Priced } = {};
  if (window.step !== undefined) {
    const step = window.step;
    for (let g = Math.ceil(window.since / step) * step; g <= window.until; g += step) {
      await a.applyThrough(g);
      await b.applyThrough(g);
      yield pricePointOnce(g, a, b, window, memo);
    }
    return;
  }
  // With the opening point, `since` is a point and changes after it follow; without it (a later
  // page), a change exactly at `since` is the page's first point.
  let last = window.initial ? window.since : window.since - 1;
  await a.applyThrough(last);
  await b.applyThrough(last);
  if (window.initial) yield pricePointOnce(window.since, a, b, window, memo);
  for (;;) {
    let t = Number.POSITIVE_INFINITY;
    for (const candidate of [await a.headTime(), await b.headTime(), a.nextBoundary(last), b.nextBoundary(last)]) {
      if (candidate !== undefined && candidate > last && candidate < t) t = candidate;
    }
    if (t === Number.POSITIVE_INFINITY) return;
    if (t > window.until) return;
    await a.applyThrough(t);
    await b.applyThrough(t);
    yield pricePointOnce(t, a, b, window, memo);
    last = t;
  }
}
