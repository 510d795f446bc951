/**
 * The one live L2 book state per recorded asset. The recorder feeds it every normalized row, the
 * WebSocket/SSE surfaces read it (current book for a new subscriber, then every update), and
 * order-book history replays recorded rows through the very same code, so a book rebuilt at an
 * instant is built exactly as the live one was. Nothing else rebuilds books.
 *
 * Semantics of Polymarket's market channel (docs/ticks.md):
 * - `book` replaces both sides of the asset's book;
 * - `price_change` sets the size at one price on one side (`BUY` = bids, `SELL` = asks); the size
 *   is the new total at that level and 0 removes the level;
 * - the venue states its best bid/ask after each change: when the rebuilt book disagrees, the
 *   book is marked out of sync (a frame was lost or reordered) until the next `book` snapshot.
 *   The venue's `hash` is an opaque digest of its own book, kept and passed on, not recomputed.
 */

export interface BookLevel {
  price: number;
  size: number;
}

/** One asset's L2 book as served: bids descending, asks ascending (best level first). */
export interface OrderBookView {
  assetId: string;
  /** Condition id of the asset's market. */
  market: string;
  bids: BookLevel[];
  asks: BookLevel[];
  /** Venue time of the last event applied, epoch ms. */
  timestamp: number;
  /** The venue's hash of the last event applied, if it sent one. */
  hash: string | null;
  tickSize: string | null;
  /** False after the rebuilt best bid/ask disagreed with the venue's, until the next snapshot. */
  inSync: boolean;
}

export type BookSide = "BUY" | "SELL";

/** What the venue says the best prices are after a change ("" when it did not say). */
export interface StatedBest {
  bestBid?: string;
  bestAsk?: string;
}

function parseNumber(text: string): number | undefined {
  if (text.trim() === "") return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * One side of a book: size by price, and the prices kept sorted ascending as levels are set, so
 * the best price and the best N levels are read without sorting the side (a change is a binary
 * search and at most one splice of a few dozen numbers; a read of the top N levels is O(N)).
 */
class Side {
  readonly sizes = new Map<number, number>();
  /** Ascending. */
  readonly #prices: number[] = [];
  readonly #descending: boolean;

  constructor(descending: boolean) {
    this.#descending = descending;
  }

  #search(price: number): number {
    let lo = 0;
    let hi = this.#prices.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.#prices[mid] ?? 0) < price) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Sets the size at a price; 0 (or less) removes the level. */
  set(price: number, size: number): void {
    const had = this.sizes.has(price);
    if (size <= 0) {
      if (!had) return;
      this.sizes.delete(price);
      this.#remove(this.#search(price));
      return;
    }
    this.sizes.set(price, size);
    if (!had) this.#insert(this.#search(price), price);
  }

  // Shifts by hand rather than `splice`: splice returns a new array of what it removed, garbage on
  // every level added or removed of a replay of millions of rows (docs/spreads.md, "Replay memory").
  #insert(at: number, price: number): void {
    const prices = this.#prices;
    for (let k = prices.length; k > at; k -= 1) prices[k] = prices[k - 1] ?? 0;
    prices[at] = price;
  }

  #remove(at: number): void {
    const prices = this.#prices;
    const last = prices.length - 1;
    for (let k = at; k < last; k += 1) prices[k] = prices[k + 1] ?? 0;
    prices.length = last;
  }

  clear(): void {
    this.sizes.clear();
    this.#prices.length = 0;
  }

  best(): number | undefined {
    return this.#descending ? this.#prices[this.#prices.length - 1] : this.#prices[0];
  }

  /** The size at the best price (0 when the side is empty). */
  bestSize(): number {
    const best = this.best();
    return best === undefined ? 0 : this.sizes.get(best) ?? 0;
  }

  /** At most `depth` levels, best first. */
  levels(depth: number): BookLevel[] {
    const out: BookLevel[] = [];
    const n = this.#prices.length;
    for (let i = 0; i < n && out.length < depth; i += 1) {
      const price = this.#prices[this.#descending ? n - 1 - i : i] ?? 0;
      out.push({ price, size: this.sizes.get(price) ?? 0 });
    }
    return out;
  }
}

/** A stated best price as a number (undefined: it states nothing: missing or not a number). */
function statedNumber(stated: string | undefined): number | undefined {
  return stated === undefined ? undefined : parseNumber(stated);
}

/** Does the venue's stated best price (undefined: none) agree with ours? An empty side may be stated as 0 or 1. */
function agrees(value: number | undefined, ours: number | undefined, emptyValues: readonly number[]): boolean {
  if (value === undefined) return true;
  if (ours === undefined) return emptyValues.includes(value);
  return Math.abs(value - ours) < 1e-9;
}

export class AssetBook {
  readonly assetId: string;
  readonly market: string;
  readonly #bids = new Side(true);
  readonly #asks = new Side(false);
  #timestamp = 0;
  #hash: string | null = null;
  #tickSize: string | null = null;
  #hasSnapshot = false;
  #inSync = true;
  /** Changes whose stated best price disagreed with the rebuilt book. */
  desyncs = 0;

  constructor(assetId: string, market: string) {
    this.assetId = assetId;
    this.market = market;
  }

  /** True once a `book` snapshot was applied: before that the book is only partial. */
  get hasSnapshot(): boolean {
    return this.#hasSnapshot;
  }

  get inSync(): boolean {
    return this.#inSync;
  }

  get timestamp(): number {
    return this.#timestamp;
  }

  /** Replaces both sides (a `book` event). Levels are `[price, size]` decimal strings in any order. */
  applySnapshot(
    bids: readonly (readonly [string, string])[],
    asks: readonly (readonly [string, string])[],
    timestampMs: number,
    hash?: string | null,
    tickSize?: string | null,
  ): void {
    this.#bids.clear();
    this.#asks.clear();
    for (const [price, size] of bids) this.#set(this.#bids, price, size);
    for (const [price, size] of asks) this.#set(this.#asks, price, size);
    this.#timestamp = timestampMs;
    this.#hash = hash || null;
    if (tickSize) this.#tickSize = tickSize;
    this.#hasSnapshot = true;
    this.#inSync = true;
  }

  /** Sets one level (a `price_change` entry); checks the venue's stated best prices after it. */
  applyChange(side: BookSide, price: string, size: string, timestampMs: number, stated: StatedBest = {}, hash?: string | null): void {
    this.applyChangeNumbers(side, parseNumber(price), parseNumber(size), timestampMs, statedNumber(stated.bestBid), statedNumber(stated.bestAsk), hash);
  }

  /**
   * `applyChange` of texts already read as `Number` reads them (undefined: not a number; the level
   * is not set, the stated best not checked), for a reader whose engine parsed them
   * (lib/history/ticks.ts, `mergedBookRows`).
   */
  applyChangeNumbers(side: BookSide, price: number | undefined, size: number | undefined, timestampMs: number, bestBid?: number, bestAsk?: number, hash?: string | null): void {
    if (price !== undefined && size !== undefined) (side === "BUY" ? this.#bids : this.#asks).set(price, size);
    if (timestampMs > this.#timestamp) this.#timestamp = timestampMs;
    if (hash) this.#hash = hash;
    if (!this.#hasSnapshot) return;
    const bidOk = agrees(bestBid, this.#bids.best(), [0]);
    const askOk = agrees(bestAsk, this.#asks.best(), [0, 1]);
    if (!bidOk || !askOk) {
      if (this.#inSync) this.desyncs += 1;
      this.#inSync = false;
    }
  }

  setTickSize(tickSize: string): void {
    this.#tickSize = tickSize;
  }

  bestBid(): number | undefined {
    return this.#bids.best();
  }

  bestAsk(): number | undefined {
    return this.#asks.best();
  }

  /** Contracts at the best bid (0 when there is none): the top of the book without a view of it. */
  bestBidSize(): number {
    return this.#bids.bestSize();
  }

  bestAskSize(): number {
    return this.#asks.bestSize();
  }

  /** The book as served, best level first, at most `depth` levels a side. */
  view(depth = Number.POSITIVE_INFINITY): OrderBookView {
    return {
      assetId: this.assetId,
      market: this.market,
      bids: this.#bids.levels(depth),
      asks: this.#asks.levels(depth),
      timestamp: this.#timestamp,
      hash: this.#hash,
      tickSize: this.#tickSize,
      inSync: this.#inSync,
    };
  }

  #set(side: Side, priceText: string, sizeText: string): void {
    const price = parseNumber(priceText);
    const size = parseNumber(sizeText);
    if (price === undefined || size === undefined) return;
    side.set(price, size);
  }

}

/** A recorded or live row as the recorder normalizes it (lib/recorder/polymarket/normalize.ts, lib/recorder/kalshi/normalize.ts). */
export interface BookRow {
  timestampMs: number;
  market: string;
  eventType: string;
  /** The normalized event JSON. */
  data: string;
  /** `data` already parsed, when the producer built it from values it holds (saves a JSON.parse per row). */
  parsed?: BookData;
}

/** The fields of a row's `data` the book state reads. */
export interface BookData {
  asset_id?: unknown;
  bids?: unknown;
  asks?: unknown;
  hash?: unknown;
  tick_size?: unknown;
  price?: unknown;
  size?: unknown;
  side?: unknown;
  best_bid?: unknown;
  best_ask?: unknown;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function levelPairs(value: unknown): [string, string][] {
  if (!Array.isArray(value)) return [];
  const out: [string, string][] = [];
  for (const level of value) {
    if (Array.isArray(level) && typeof level[0] === "string" && typeof level[1] === "string") out.push([level[0], level[1]]);
  }
  return out;
}

/**
 * The live books of every asset seen, keyed by asset id. `apply` takes the recorder's normalized
 * rows in order and returns the book a row changed (undefined for rows that are not book events).
 */
export class BookStore {
  readonly #books = new Map<string, AssetBook>();

  get size(): number {
    return this.#books.size;
  }

  get(assetId: string): AssetBook | undefined {
    return this.#books.get(assetId);
  }

  assets(): IterableIterator<string> {
    return this.#books.keys();
  }

  /** Forgets an asset (unsubscribed): its book would go stale. */
  drop(assetId: string): void {
    this.#books.delete(assetId);
  }

  apply(row: BookRow): AssetBook | undefined {
    if (row.eventType !== "book" && row.eventType !== "price_change") return undefined;
    let data: BookData;
    if (row.parsed !== undefined) data = row.parsed;
    else {
      try {
        data = JSON.parse(row.data) as BookData;
      } catch {
        return undefined;
      }
    }
    const assetId = text(data.asset_id);
    if (assetId === undefined) return undefined;
    let book = this.#books.get(assetId);
    if (book === undefined) {
      book = new AssetBook(assetId, row.market);
      this.#books.set(assetId, book);
    }
    if (row.eventType === "book") {
      applyBookData(book, row.timestampMs, data.bids, data.asks, data.hash, data.tick_size);
      return book;
    }
    return applyChangeData(book, row.timestampMs, data.side, data.price, data.size, data.best_bid, data.best_ask, data.hash) ? book : undefined;
  }
}

/** Applies a `book` row's fields (a snapshot replaces both sides), as `BookStore.apply` does: for a reader that holds a row's fields, not its document. */
export function applyBookData(book: AssetBook, timestampMs: number, bids: unknown, asks: unknown, hash?: unknown, tickSize?: unknown): void {
  book.applySnapshot(levelPairs(bids), levelPairs(asks), timestampMs, text(hash), text(tickSize));
}

/** Applies a `price_change` row's fields, as `BookStore.apply` does; false (nothing applied) when its side is not BUY or SELL or its price or size is not a string. */
export function applyChangeData(book: AssetBook, timestampMs: number, side: unknown, price: unknown, size: unknown, bestBid: unknown, bestAsk: unknown, hash?: unknown): boolean {
  const priceText = text(price);
  const sizeText = text(size);
  if ((side !== "BUY" && side !== "SELL") || priceText === undefined || sizeText === undefined) return false;
  book.applyChange(side, priceText, sizeText, timestampMs, { bestBid: text(bestBid), bestAsk: text(bestAsk) }, text(hash));
  return true;
}

/**
 * Applies a change whose fields the engine read as numbers (lib/history/ticks.ts, `mergedBookRows`:
 * a change written as decimal texts `Number` reads exactly), as `applyChangeData` applies their
 * texts; a stated best of NaN states nothing.
 */
export function applyChangeNumbers(book: AssetBook, timestampMs: number, side: BookSide, price: number, size: number, bestBid: number, bestAsk: number): void {
  book.applyChangeNumbers(side, price, size, timestampMs, Number.isNaN(bestBid) ? undefined : bestBid, Number.isNaN(bestAsk) ? undefined : bestAsk);
}

/**
 * A book row as a replay reads it, positional: a snapshot `[ts, side, 1, bids, asks]` and a change
 * `[ts, side, 0, bookSide, price, size, best_bid, best_ask]` carry the fields as the document held
 * them (null where it lacks one), read as `BookStore.apply` reads the document; a change the engine
 * read exactly is `[ts, side, 2, bookSide, price, size, best_bid, best_ask]` with numbers
 * (`applyChangeNumbers`). `side` tells the books of a merged replay apart. A replay carries its
 * rows as `ReplayBatch` columns; a row tuple is how a script writes one (`ReplayBatch.of`).
 */
export type ReplayRow =
  | readonly [timestampMs: number, side: number, kind: 1, bids: unknown, asks: unknown]
  | readonly [timestampMs: number, side: number, kind: 0, bookSide: unknown, price: unknown, size: unknown, bestBid: unknown, bestAsk: unknown]
  | readonly [timestampMs: number, side: number, kind: 2, bookSide: BookSide, price: number, size: number, bestBid: number, bestAsk: number];

/** `ReplayBatch.bookSide` of a change read exactly. */
const BUY = 1;
const SELL = 2;

/**
 * Rows of a replay in columns (lib/history/ticks.ts, `mergedBookRows`; lib/spreads replays them):
 * numbers in typed arrays, no object per row. A replay reads millions of rows; as a tuple each
 * (an array and five boxed numbers, ~180 bytes) was garbage the collector left to pile up (the
 * bench's Node heap grew 255 MB over 2 × 1M rows while at most 15 MB of it was live,
 * docs/spreads.md, "Replay memory"). Only a snapshot and a change not read exactly keep their
 * fields as values (`fields`, by row index).
 */
export class ReplayBatch {
  length = 0;
  /** Venue time, epoch ms. */
  readonly ts: Float64Array;
  /** Which book of the replay the row belongs to. */
  readonly side: Uint8Array;
  /** 1 a snapshot, 0 a change of fields as the document held them, 2 a change read exactly. */
  readonly kind: Uint8Array;
  /** A change read exactly: 1 BUY, 2 SELL. */
  readonly bookSide: Uint8Array;
  readonly price: Float64Array;
  readonly size: Float64Array;
  /** NaN: states nothing. */
  readonly bestBid: Float64Array;
  readonly bestAsk: Float64Array;
  /** Kind 1: `[bids, asks]`; kind 0: `[bookSide, price, size, best_bid, best_ask]`. */
  readonly fields = new Map<number, readonly unknown[]>();

  constructor(readonly capacity: number) {
    this.ts = new Float64Array(capacity);
    this.side = new Uint8Array(capacity);
    this.kind = new Uint8Array(capacity);
    this.bookSide = new Uint8Array(capacity);
    this.price = new Float64Array(capacity);
    this.size = new Float64Array(capacity);
    this.bestBid = new Float64Array(capacity);
    this.bestAsk = new Float64Array(capacity);
  }

  /** A batch of row tuples (tests, scripts). */
  static of(rows: readonly ReplayRow[]): ReplayBatch {
    const batch = new ReplayBatch(Math.max(1, rows.length));
    for (const row of rows) {
      if (row[2] === 2) batch.pushChange(row[0], row[1], row[3], row[4], row[5], row[6], row[7]);
      else batch.pushFields(row[0], row[1], row[2], row.slice(3));
    }
    return batch;
  }

  get full(): boolean {
    return this.length >= this.capacity;
  }

  /** A change read exactly. */
  pushChange(ts: number, side: number, bookSide: BookSide, price: number, size: number, bestBid: number, bestAsk: number): void {
    const i = this.length;
    this.ts[i] = ts;
    this.side[i] = side;
    this.kind[i] = 2;
    this.bookSide[i] = bookSide === "BUY" ? BUY : SELL;
    this.price[i] = price;
    this.size[i] = size;
    this.bestBid[i] = bestBid;
    this.bestAsk[i] = bestAsk;
    this.length = i + 1;
  }

  /** A snapshot (kind 1: `[bids, asks]`) or a change of fields as the document held them (kind 0). */
  pushFields(ts: number, side: number, kind: 0 | 1, fields: readonly unknown[]): void {
    const i = this.length;
    this.ts[i] = ts;
    this.side[i] = side;
    this.kind[i] = kind;
    this.bookSide[i] = 0;
    this.fields.set(i, fields);
    this.length = i + 1;
  }

  /** Row `i` as a tuple (tests, and a reader that wants one row). */
  row(i: number): ReplayRow {
    const ts = this.ts[i] ?? 0;
    const side = this.side[i] ?? 0;
    if (this.kind[i] === 2) {
      return [ts, side, 2, this.bookSide[i] === BUY ? "BUY" : "SELL", this.price[i] ?? Number.NaN, this.size[i] ?? Number.NaN, this.bestBid[i] ?? Number.NaN, this.bestAsk[i] ?? Number.NaN];
    }
    const fields = this.fields.get(i) ?? [];
    if (this.kind[i] === 1) return [ts, side, 1, fields[0], fields[1]];
    return [ts, side, 0, fields[0], fields[1], fields[2], fields[3], fields[4]];
  }

  /** The side of change `i` as the row states it (kind 0: the document's field, whatever it is). */
  changeSide(i: number): unknown {
    if (this.kind[i] === 2) return this.bookSide[i] === BUY ? "BUY" : "SELL";
    return this.fields.get(i)?.[0];
  }

  /** The price of change `i` as a number (kind 0: `Number` of the document's field). */
  changePrice(i: number): number {
    if (this.kind[i] === 2) return this.price[i] ?? Number.NaN;
    return Number(this.fields.get(i)?.[1]);
  }
}

/** Applies row `i` of a replay batch to its book, as `BookStore.apply` applies the row's document; false when nothing was applied. */
export function applyReplayBatchRow(book: AssetBook, batch: ReplayBatch, i: number): boolean {
  const kind = batch.kind[i];
  const ts = batch.ts[i] ?? 0;
  if (kind === 2) {
    applyChangeNumbers(book, ts, batch.bookSide[i] === BUY ? "BUY" : "SELL", batch.price[i] ?? Number.NaN, batch.size[i] ?? Number.NaN, batch.bestBid[i] ?? Number.NaN, batch.bestAsk[i] ?? Number.NaN);
    return true;
  }
  const fields = batch.fields.get(i) ?? [];
  if (kind === 1) {
    applyBookData(book, ts, fields[0], fields[1]);
    return true;
  }
  return applyChangeData(book, ts, fields[0], fields[1], fields[2], fields[3], fields[4]);
}

/**
 * Rebuilds one asset's book from its recorded rows in venue-time order (the last `book` at or
 * before the instant, then every change after it): what history serves at an instant.
 */
export function replayBook(assetId: string, market: string, rows: Iterable<BookRow>): AssetBook {
  const store = new BookStore();
  let book: AssetBook | undefined;
  for (const row of rows) {
    const touched = store.apply(row);
    if (touched?.assetId === assetId) book = touched;
  }
  return book ?? new AssetBook(assetId, market);
}
