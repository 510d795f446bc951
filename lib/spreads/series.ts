import { AssetBook, applyReplayBatchRow, type BookLevel, type ReplayBatch } from "@/lib/books/book-state";
import type { Span } from "@/lib/history/coverage-model";
import { marketFeeAt, scheduleChanges, type FeeSubject, type MarketFee } from "./fees";
import type { SpreadPoint, UnknownReason } from "./shapes";
import { availableSize, executable, walkLeg, type Executable, type Leg } from "./spread-math";

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
  /**
   * When the asset was recorded (the journal's coverage), sorted, merged, from the journal read
   * from the replay's first snapshot (or `since`, if earlier): see `stretchesOf`.
   */
  spans: readonly Span[];
  /**
   * When the market's trading ended (it closed or resolved: lib/outcomes), epoch ms; undefined
   * while it trades. From that instant on the side is unknown (`market_closed`): no spread is
   * priced against a market that can no longer be traded.
   */
  closedAt?: number;
}

/**
 * Both books' rows in replay order (venue time, then each side's own order), a batch of columns at
 * a time (lib/history/ticks.ts, `mergedBookRows`), `side` 0 for A and 1 for B.
 */
export type SeriesRows = AsyncIterable<ReplayBatch>;

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
  /**
   * In change mode, for a fold that reads each change's net only against the threshold (episodes,
   * days) and whole points only on grids (lib/spreads/day-cache.ts): a known point whose gross is
   * at or below the threshold both ways is not walked (`net` and `best` left null: neither
   * direction's net can be above the threshold, since a walk's prices and the fees only take away
   * from the gross) unless an instant of one of these grid steps falls from it to the next point,
   * where it is priced whole before the books move on.
   */
  pricedGrids?: readonly number[];
}

/** Levels a side read for a point unless a walk needs more. */
const LEVELS_READ = 8;

const sumSizes = (levels: readonly BookLevel[]) => levels.reduce((total, level) => total + level.size, 0);

export interface Levels {
  bids: BookLevel[];
  asks: BookLevel[];
}

export type Quote = NonNullable<SpreadPoint["a"]>;

/** What pricing a point needs of one side's book at an instant (the series' replayed book, or a live one: lib/spreads/live.ts). */
export interface PriceableBook {
  unknownAt(t: number): UnknownReason | null;
  /** Best bid and ask with their sizes. */
  quote(): Quote;
  /** Best levels, best first: the top ones, or (`full`) the whole book. */
  levels(full?: boolean): Levels;
  feeAt(t: number): MarketFee;
  /** Buying `size` at the asks and selling it at the bids. */
  legs(size: number, fee: MarketFee): { buy: Leg; sell: Leg };
}

/** A walk still holds after a change at `price` beyond the last level it reached (`beyond`: above it for asks, below for bids) when it filled the whole size. */
function walkHolds(leg: Leg | undefined, size: number, price: number, beyond: 1 | -1): leg is Leg {
  return leg !== undefined && leg.worstPrice !== null && leg.filled >= size && (price - leg.worstPrice) * beyond > 0;
}

/**
 * One side's book, coverage and cached walks while the series advances. The walks (both legs of
 * `size`, each with its venue's exact fee) are the costly part of a point; a change at a price
 * beyond the levels a walk reached cannot change it (most changes of a busy book land below the
 * few levels a usual size reaches), so each leg is walked again only after a snapshot, a fee
 * change, or a change at or inside the levels it used.
 */
class Side implements PriceableBook {
  readonly #input: SideInput;
  /** The book the rows are applied to (lib/books, the recorder's and history's code), and it once a row applied. */
  readonly #state: AssetBook;
  #book: AssetBook | undefined;
  #lastSnapshot = Number.NEGATIVE_INFINITY;
  #version = 0;
  #spanIndex = 0;
  #levels: { version: number; depth: number; levels: Levels } | undefined;
  #quote: { version: number; quote: Quote } | undefined;
  #size = 0;
  #fee: MarketFee | undefined;
  #buy: Leg | undefined;
  #sell: Leg | undefined;
  #legs: { buy: Leg; sell: Leg } | undefined;
  #feeNow: { until: number; fee: MarketFee } | undefined;
  readonly #feeChanges: number[];
  readonly #stretches: Stretch[];
  /** Every instant the side's state may change without a row (coverage edges, fee changes, the market's close), ascending. */
  readonly #boundaries: number[];
  #boundaryIndex = 0;

  constructor(input: SideInput, window: SeriesWindow) {
    this.#input = input;
    this.#state = new AssetBook(input.outcomeId, "");
    this.#stretches = stretchesOf(input.spans);
    this.#feeChanges = scheduleChanges(input.fee, window.since - 1, window.until);
    const edges = [...this.#stretches.flatMap((span) => [span.start, span.end]), ...this.#feeChanges];
    if (input.closedAt !== undefined) edges.push(input.closedAt);
    this.#boundaries = [...new Set(edges)].sort((x, y) => x - y);
  }

  /** Applies row `i` of the batch, one of this side's rows (in replay order), as `BookStore.apply` applies a row of the asset. */
  apply(batch: ReplayBatch, i: number): void {
    if (!applyReplayBatchRow(this.#state, batch, i)) return;
    if (batch.kind[i] === 1) {
      this.#lastSnapshot = batch.ts[i] ?? 0;
      this.#buy = undefined;
      this.#sell = undefined;
      this.#legs = undefined;
    } else {
      const side = batch.changeSide(i);
      const at = batch.changePrice(i);
      // Bids walked by the sell leg (best first, descending), asks by the buy leg (ascending).
      if (side === "BUY" && !walkHolds(this.#sell, this.#size, at, -1)) {
        this.#sell = undefined;
        this.#legs = undefined;
      }
      if (side === "SELL" && !walkHolds(this.#buy, this.#size, at, 1)) {
        this.#buy = undefined;
        this.#legs = undefined;
      }
    }
    this.#book = this.#state;
    this.#version += 1;
  }

  /** Changes with every row applied to the book: a point priced at the same versions of both books is priced the same. */
  get version(): number {
    return this.#version;
  }

  /** The first instant after `t` at which the side's state may change without a row: a coverage boundary, a fee change, the market's close. Times only move forward. */
  nextBoundary(t: number): number | undefined {
    const boundaries = this.#boundaries;
    while (this.#boundaryIndex < boundaries.length && (boundaries[this.#boundaryIndex] ?? 0) <= t) this.#boundaryIndex += 1;
    return boundaries[this.#boundaryIndex];
  }

  /** Why the book is not known at `t`, or null when it is. Times only move forward. */
  unknownAt(t: number): UnknownReason | null {
    if (this.#input.closedAt !== undefined && t >= this.#input.closedAt) return "market_closed";
    const stretches = this.#stretches;
    while (this.#spanIndex < stretches.length && (stretches[this.#spanIndex]?.end ?? 0) <= t) this.#spanIndex += 1;
    const stretch = stretches[this.#spanIndex];
    if (stretch === undefined || stretch.start > t) return "not_recorded";
    if (this.#book === undefined || !this.#book.hasSnapshot) return "no_book";
    if (this.#lastSnapshot <= stretch.snapshotAfter) return "awaiting_snapshot";
    if (!this.#book.inSync) return "out_of_sync";
    return null;
  }

  quote(): Quote {
    if (this.#quote?.version !== this.#version) {
      const book = this.#book;
      const quote = { bid: book?.bestBid() ?? null, bidSize: book?.bestBidSize() ?? 0, ask: book?.bestAsk() ?? null, askSize: book?.bestAskSize() ?? 0 };
      this.#quote = { version: this.#version, quote };
    }
    return this.#quote.quote;
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

  /** The fee model in force at `t`: the same object until the next fee change. */
  feeAt(t: number): MarketFee {
    if (this.#feeNow === undefined || t >= this.#feeNow.until) {
      const until = this.#feeChanges.find((change) => change > t) ?? Number.POSITIVE_INFINITY;
      this.#feeNow = { until, fee: marketFeeAt(this.#input.fee, t) };
    }
    return this.#feeNow.fee;
  }

  /** Buying `size` at the asks and selling it at the bids, each walked again only when a change may have moved it (see the class). */
  legs(size: number, fee: MarketFee): { buy: Leg; sell: Leg } {
    if (size !== this.#size || fee !== this.#fee) {
      this.#size = size;
      this.#fee = fee;
      this.#buy = undefined;
      this.#sell = undefined;
      this.#legs = undefined;
    }
    if (this.#legs !== undefined) return this.#legs;
    if (this.#buy === undefined) this.#buy = walkLeg(this.#walked("asks", size), size, fee, "buy");
    if (this.#sell === undefined) this.#sell = walkLeg(this.#walked("bids", size), size, fee, "sell");
    this.#legs = { buy: this.#buy, sell: this.#sell };
    return this.#legs;
  }

  /** One side's levels for a walk of `size`: the levels read, the whole side only when they hold less than `size`. */
  #walked(which: "bids" | "asks", size: number): BookLevel[] {
    const levels = this.levels()[which];
    return levels.length === LEVELS_READ && sumSizes(levels) < size ? this.levels(true)[which] : levels;
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

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;
const grossOf = (bid: number | null, ask: number | null) => (bid === null || ask === null ? null : round6(bid - ask));

/** The last point priced, reused for a later instant at which neither book nor fee nor coverage changed (a grid over a quiet book). */
interface Priced {
  versionA: number;
  versionB: number;
  unknownA: UnknownReason | null;
  unknownB: UnknownReason | null;
  feeA: MarketFee;
  feeB: MarketFee;
  point: SpreadPoint;
}

function pricePointOnce(t: number, a: Side, b: Side, window: SeriesWindow, last: { priced?: Priced; executable?: ExecutableMemo }, unwalked = false): SpreadPoint {
  const unknownA = a.unknownAt(t);
  const unknownB = b.unknownAt(t);
  const feeA = a.feeAt(t);
  const feeB = b.feeAt(t);
  const priced = last.priced;
  if (priced !== undefined && priced.versionA === a.version && priced.versionB === b.version && priced.unknownA === unknownA && priced.unknownB === unknownB && priced.feeA === feeA && priced.feeB === feeB) {
    return { ...priced.point, t };
  }
  last.executable ??= { aToB: {}, bToA: {} };
  const point = pricePair(t, a, b, window.size, window.threshold, last.executable, unwalked);
  last.priced = { versionA: a.version, versionB: b.version, unknownA, unknownB, feeA, feeB, point };
  return point;
}

/** The last direction priced: its two legs and what they gave. */
interface ExecutableMemoEntry {
  buy?: Leg;
  sell?: Leg;
  size?: number;
  value?: Executable;
}

/** Each direction's last pricing, kept by the series between points. */
export interface ExecutableMemo {
  aToB: ExecutableMemoEntry;
  bToA: ExecutableMemoEntry;
}

/**
 * One direction priced from its two legs, or the same answer again when both legs are the ones
 * it was priced from (the sides keep a leg until a change can move it: most changes of a busy
 * book leave both legs of a usual size as they were).
 */
function executableOf(buy: Leg, sell: Leg, size: number, memo: ExecutableMemoEntry | undefined): Executable {
  if (memo === undefined) return executable(buy, sell, size);
  if (memo.value === undefined || memo.buy !== buy || memo.sell !== sell || memo.size !== size) {
    memo.buy = buy;
    memo.sell = sell;
    memo.size = size;
    memo.value = executable(buy, sell, size);
  }
  return memo.value;
}

/**
 * The point of a pair at `t`: both books' best levels, gross both ways, the executable spread for
 * `size` after fees; unknown where either book is. `unwalked`: a known point whose gross is at or
 * below the threshold both ways is left with `net` and `best` null (SeriesWindow.pricedGrids).
 */
export function pricePair(t: number, a: PriceableBook, b: PriceableBook, size: number, threshold: number, memo?: ExecutableMemo, unwalked = false): SpreadPoint {
  const unknownA = a.unknownAt(t);
  const unknownB = b.unknownAt(t);
  const quoteA = unknownA === null ? a.quote() : null;
  const quoteB = unknownB === null ? b.quote() : null;
  if (quoteA === null || quoteB === null) {
    return { t, known: false, unknown: { a: unknownA, b: unknownB }, a: quoteA, b: quoteB, gross: null, net: null, best: null, available: null };
  }
  const gross = { aToB: grossOf(quoteB.bid, quoteA.ask), bToA: grossOf(quoteA.bid, quoteB.ask) };
  const aboveAToB = gross.aToB !== null && gross.aToB > threshold;
  const aboveBToA = gross.bToA !== null && gross.bToA > threshold;
  if (unwalked && !aboveAToB && !aboveBToA) {
    return { t, known: true, unknown: null, a: quoteA, b: quoteB, gross, net: null, best: null, available: { aToB: 0, bToA: 0 } };
  }
  const feeA = a.feeAt(t);
  const feeB = b.feeAt(t);
  const legsA = a.legs(size, feeA);
  const legsB = b.legs(size, feeB);
  const aToB = executableOf(legsA.buy, legsB.sell, size, memo?.aToB);
  const bToA = executableOf(legsB.buy, legsA.sell, size, memo?.bToA);
  const best = aToB.perContract === null ? bToA.perContract : bToA.perContract === null ? aToB.perContract : Math.max(aToB.perContract, bToA.perContract);
  const available = {
    aToB: aboveAToB ? availableBetween(a, b, feeA, feeB, threshold) : 0,
    bToA: aboveBToA ? availableBetween(b, a, feeB, feeA, threshold) : 0,
  };
  return { t, known: true, unknown: null, a: quoteA, b: quoteB, gross, net: { aToB, bToA }, best, available };
}

/** Points handed to the caller at a time: a batch, not a promise per point. */
const POINTS_A_BATCH = 512;

/**
 * Both books' merged rows, read a batch at a time: the series applies rows synchronously within
 * a batch and awaits only for the next one (a promise per batch of the engine's stream, not
 * several per row).
 */
class RowSource {
  readonly #iterator: AsyncIterator<ReplayBatch>;
  readonly #sides: readonly Side[];
  #batch: ReplayBatch | undefined;
  #index = 0;
  #done = false;

  constructor(rows: SeriesRows, sides: readonly Side[]) {
    this.#iterator = rows[Symbol.asyncIterator]();
    this.#sides = sides;
  }

  /** The next row's time, reading the next batch only when this one is used up; undefined when no row is left. */
  async headTime(): Promise<number | undefined> {
    while (this.#index >= (this.#batch?.length ?? 0) && !this.#done) await this.#next();
    return this.peekTime();
  }

  /** The next row's time when the batch in hand has one (no await), else undefined. */
  peekTime(): number | undefined {
    const batch = this.#batch;
    return batch !== undefined && this.#index < batch.length ? batch.ts[this.#index] : undefined;
  }

  async #next(): Promise<void> {
    const next = await this.#iterator.next();
    if (next.done === true) this.#done = true;
    else {
      this.#batch = next.value;
      this.#index = 0;
    }
  }

  /** Applies every row with time <= `t` to its side, awaiting only when a batch is used up. */
  async applyThrough(t: number): Promise<void> {
    while (!this.#applyBatch(t) && !this.#done) await this.#next();
  }

  /** Applies the batch's rows with time <= `t`; true when a later row was reached (or none is left). */
  #applyBatch(t: number): boolean {
    const batch = this.#batch;
    if (batch === undefined) return this.#done;
    const sides = this.#sides;
    const times = batch.ts;
    let i = this.#index;
    for (; i < batch.length; i += 1) {
      if ((times[i] ?? 0) > t) break;
      sides[batch.side[i] ?? 0]?.apply(batch, i);
    }
    this.#index = i;
    return i < batch.length || this.#done;
  }

  /** applyThrough without a promise when the batch in hand reaches past `t` (the usual case); false when it must be awaited. */
  applyThroughNow(t: number): boolean {
    return this.#applyBatch(t);
  }

  async close(): Promise<void> {
    if (!this.#done) await this.#iterator.return?.();
    this.#done = true;
  }
}

/**
 * The series of the window, oldest first, in batches: every change (and coverage boundary) of
 * either book, or one point per grid instant. `rows` are both books' rows merged in replay order
 * (`side` 0 is A's, 1 B's).
 */
export async function* priceSeries(inputA: SideInput, inputB: SideInput, rows: SeriesRows, window: SeriesWindow): AsyncGenerator<SpreadPoint[]> {
  const a = new Side(inputA, window);
  const b = new Side(inputB, window);
  const source = new RowSource(rows, [a, b]);
  try {
    yield* walk(source, a, b, window);
  } finally {
    // A caller that stops early (a full page) ends the row stream, and with it its query.
    await source.close();
  }
}

async function* walk(source: RowSource, a: Side, b: Side, window: SeriesWindow): AsyncGenerator<SpreadPoint[]> {
  const memo: { priced?: Priced; executable?: ExecutableMemo } = {};
  let points: SpreadPoint[] = [];
  if (window.step !== undefined) {
    const step = window.step;
    for (let g = Math.ceil(window.since / step) * step; g <= window.until; g += step) {
      if (!source.applyThroughNow(g)) await source.applyThrough(g);
      points.push(pricePointOnce(g, a, b, window, memo));
      if (points.length >= POINTS_A_BATCH) {
        yield points;
        points = [];
      }
    }
    if (points.length > 0) yield points;
    return;
  }
  // With the opening point, `since` is a point and changes after it follow; without it (a later
  // page), a change exactly at `since` is the page's first point.
  let last = window.initial ? window.since : window.since - 1;
  await source.applyThrough(last);
  const grids = window.pricedGrids;
  const unwalked = grids !== undefined;
  /** The last point, when it was left unwalked: priced whole (the books still as they were at it) if a grid instant in [its time, `before`) takes it. */
  let pending: SpreadPoint | undefined;
  const priceWhole = (before: number) => {
    if (pending === undefined || grids === undefined) return;
    const at = pending.t;
    if (grids.some((step) => Math.ceil(at / step) * step < before)) {
      const whole = pricePair(at, a, b, window.size, window.threshold, memo.executable);
      pending.net = whole.net;
      pending.best = whole.best;
    }
    pending = undefined;
  };
  const push = (point: SpreadPoint) => {
    points.push(point);
    if (unwalked && point.known && point.net === null) pending = point;
  };
  if (window.initial) push(pricePointOnce(window.since, a, b, window, memo, unwalked));
  for (;;) {
    let t = Number.POSITIVE_INFINITY;
    const head = source.peekTime() ?? (await source.headTime());
    if (head !== undefined && head > last) t = head;
    const boundaryA = a.nextBoundary(last);
    if (boundaryA !== undefined && boundaryA < t) t = boundaryA;
    const boundaryB = b.nextBoundary(last);
    if (boundaryB !== undefined && boundaryB < t) t = boundaryB;
    if (t === Number.POSITIVE_INFINITY || t > window.until) break;
    priceWhole(t);
    if (!source.applyThroughNow(t)) await source.applyThrough(t);
    push(pricePointOnce(t, a, b, window, memo, unwalked));
    if (points.length >= POINTS_A_BATCH) {
      yield points;
      points = [];
    }
    last = t;
  }
  priceWhole(window.until + 1);
  if (points.length > 0) yield points;
}
