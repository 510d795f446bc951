import type { BookData } from "@/lib/books/book-state";
import type { NormalizedFrame, TickEventType, TickRow } from "../rows";

/**
 * Kalshi order-book channel messages -> rows of `kalshi_orderbook`, in the vocabulary of
 * `polymarket_orderbook_rust` (docs/ticks.md, "Kalshi"), so the shared book state, history, the
 * published SQL patterns and the archive read both tables with the same code.
 *
 * Kalshi sends one book per market: YES bids and NO bids. A NO bid at p is an offer to sell YES
 * at 1 − p, so each market is recorded as two outcome books, as Polymarket records its two tokens:
 * - the YES outcome (`asset_id` = market ticker): bids = YES bids, asks = NO bids at 1 − p;
 * - the NO outcome (`asset_id` = ticker + "-NO", the catalog's id): bids = NO bids, asks = YES bids at 1 − p.
 *
 * - `orderbook_snapshot` -> two `book` rows; sides as `[[price, size], …]` with the best level LAST
 *   (bids ascending, asks descending), as Polymarket's wire order.
 * - `orderbook_delta` (a signed change of the size at one price of one side) -> two `price_change`
 *   rows carrying the NEW total at that level (0 removes it), the side (`BUY` = bids, `SELL` =
 *   asks), the best bid/ask after the change and the venue's `delta`: Polymarket's semantics,
 *   computed from the recorder's own book of the market.
 * - `trade` -> two `last_trade_price` rows (YES at the YES price, NO at the NO price); `side` is
 *   BUY for the outcome the taker bought; `transaction_hash` holds Kalshi's trade id.
 * Prices are dollars with 4 decimals ("0.5500"), sizes contracts with 2 ("1200.00"), as Kalshi's
 * `_dollars` / `_fp` fields; the legacy integer-cent fields are read too.
 *
 * Time: a delta or trade carries the venue's time (`ts_ms`, or `ts` in seconds or ISO); a snapshot
 * carries none, so it gets the receive time. Rows that change a book are kept strictly increasing
 * per market (a row never sorts before the snapshot or change it follows; two changes in one
 * millisecond are spread 1 ms apart), because the table orders rows of one instant by a hash.
 */

export const NO_SUFFIX = "-NO";

/** The catalog outcome id of a Kalshi market's NO side. */
export function noOutcomeId(ticker: string): string {
  return `${ticker}${NO_SUFFIX}`;
}

/** Prices and sizes are kept as integers of 1/10,000 (Kalshi's finest price and count steps are coarser). */
const SCALE = 10_000;

type Json = Record<string, unknown>;

class MalformedMessage extends Error {}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function scaled(value: unknown, centsFactor = 1): number | undefined {
  const number = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN;
  if (!Number.isFinite(number)) return undefined;
  return Math.round((number / centsFactor) * SCALE);
}

function required(value: number | undefined, what: string): number {
  if (value === undefined) throw new MalformedMessage(`${what} is missing`);
  return value;
}

const price = (units: number) => (units / SCALE).toFixed(4);
const size = (units: number) => (units % 100 === 0 ? (units / SCALE).toFixed(2) : (units / SCALE).toFixed(4));

/** Levels of one side as `[priceUnits, sizeUnits]`: `_dollars_fp` string pairs, or legacy cents. */
function snapshotSide(msg: Json, side: "yes" | "no"): Array<[number, number]> {
  const fp = msg[`${side}_dollars_fp`] ?? msg[`${side}_dollars`];
  const legacy = msg[side];
  const source = fp ?? legacy;
  if (source === undefined || source === null) return [];
  if (!Array.isArray(source)) throw new MalformedMessage(`${side} side is not an array`);
  const cents = fp === undefined ? 100 : 1;
  return source.map((level: unknown) => {
    if (Array.isArray(level)) return [required(scaled(level[0], cents), "price"), required(scaled(level[1]), "size")];
    if (isObject(level)) return [required(scaled(level.price, cents), "price"), required(scaled(level.quantity ?? level.size), "size")];
    throw new MalformedMessage("book level is not a pair");
  });
}

function venueMs(msg: Json, envelope: Json): number | undefined {
  const tsMs = msg.ts_ms;
  if (typeof tsMs === "number" && Number.isFinite(tsMs)) return Math.round(tsMs);
  for (const raw of [msg.ts, msg.created_time, envelope.ts]) {
    if (typeof raw === "number" && Number.isFinite(raw) && raw > 0) return Math.round(raw < 1e11 ? raw * 1000 : raw);
    if (typeof raw === "string" && raw !== "") {
      const ms = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) * (Number(raw) < 1e11 ? 1000 : 1) : Date.parse(raw);
      if (Number.isFinite(ms) && ms > 0) return Math.round(ms);
    }
  }
  return undefined;
}

function text(msg: Json, key: string): string {
  const value = msg[key];
  if (typeof value !== "string" || value === "") throw new MalformedMessage(`${key} is missing`);
  return value;
}

/** One market's book as the venue states it: YES bids and NO bids by price. */
class MarketBook {
  readonly yes = new Map<number, number>();
  readonly no = new Map<number, number>();
  lastTs = 0;

  static best(levels: ReadonlyMap<number, number>): number | undefined {
    let best: number | undefined;
    for (const key of levels.keys()) if (best === undefined || key > best) best = key;
    return best;
  }

  /** Bids ascending (best last) and the complement's asks descending (best last), as `[price, size]` text pairs. */
  sides(bidsOf: ReadonlyMap<number, number>, asksFrom: ReadonlyMap<number, number>): { bids: Array<[string, string]>; asks: Array<[string, string]> } {
    const bids = [...bidsOf].sort((a, b) => a[0] - b[0]).map(([p, s]): [string, string] => [price(p), size(s)]);
    const asks = [...asksFrom].sort((a, b) => a[0] - b[0]).map(([p, s]): [string, string] => [price(SCALE - p), size(s)]);
    return { bids, asks };
  }

  /** Best bid and ask of the outcome whose bids are `own` ("" when a side is empty). */
  best(own: ReadonlyMap<number, number>, other: ReadonlyMap<number, number>): { best_bid: string; best_ask: string } {
    const bid = MarketBook.best(own);
    const otherBid = MarketBook.best(other);
    return { best_bid: bid === undefined ? "" : price(bid), best_ask: otherBid === undefined ? "" : price(SCALE - otherBid) };
  }
}

export interface KalshiFrame extends NormalizedFrame {
  /** `subscribed` acknowledgements: the subscription id of each channel. */
  subscribed: Array<{ channel: string; sid: number }>;
  /** The venue's `error` messages (text only). */
  errors: string[];
  /** A sequence number was skipped on a book subscription: its books are unknown until resubscribed. */
  gap: boolean;
}

/**
 * Normalizes the channel's text frames, keeping each market's book to turn Kalshi's signed
 * deltas into the new totals the table stores. One instance per connection: a new connection
 * starts from the snapshots it receives.
 */
export class KalshiNormalizer {
  readonly #books = new Map<string, MarketBook>();
  readonly #seq = new Map<number, number>();

  /** Books known (markets with a snapshot). */
  get markets(): number {
    return this.#books.size;
  }

  /** Forgets everything (a reconnect, a sequence gap): deltas wait for the next snapshot. */
  reset(): void {
    this.#books.clear();
    this.#seq.clear();
  }

  /** Forgets markets no longer subscribed. */
  forget(tickers: Iterable<string>): void {
    for (const ticker of tickers) this.#books.delete(ticker);
  }

  /** Normalizes one raw text frame. Never throws. */
  normalize(raw: string, receivedMs: number): KalshiFrame {
    const frame: KalshiFrame = { rows: [], ignored: {}, malformed: 0, latestVenueMs: undefined, subscribed: [], errors: [], gap: false };
    let envelope: unknown;
    try {
      envelope = JSON.parse(raw);
    } catch {
      frame.malformed += 1;
      return frame;
    }
    if (!isObject(envelope) || typeof envelope.type !== "string") {
      frame.malformed += 1;
      return frame;
    }
    const msg = envelope.msg ?? envelope.data;
    try {
      switch (envelope.type) {
        case "orderbook_snapshot":
        case "orderbook_delta":
          if (!isObject(msg)) throw new MalformedMessage("message without msg");
          if (!this.#inSequence(envelope)) {
            frame.gap = true;
            this.reset();
            return frame;
          }
          if (envelope.type === "orderbook_snapshot") this.#snapshot(msg, receivedMs, frame);
          else this.#delta(msg, envelope, receivedMs, frame);
          return frame;
        case "trade":
          if (!isObject(msg)) throw new MalformedMessage("message without msg");
          this.#trade(msg, envelope, receivedMs, frame);
          return frame;
        case "market_lifecycle_v2":
          if (!isObject(msg)) throw new MalformedMessage("message without msg");
          (frame.lifecycle ??= []).push(msg);
          return frame;
        case "subscribed":
          if (isObject(msg) && typeof msg.channel === "string" && typeof msg.sid === "number") frame.subscribed.push({ channel: msg.channel, sid: msg.sid });
          return frame;
        case "error":
          frame.errors.push(isObject(msg) ? String(msg.msg ?? msg.code ?? "error") : String(msg ?? "error"));
          return frame;
        default:
          frame.ignored[envelope.type] = (frame.ignored[envelope.type] ?? 0) + 1;
          return frame;
      }
    } catch (error) {
      if (!(error instanceof MalformedMessage)) throw error;
      frame.malformed += 1;
      return frame;
    }
  }

  /** Kalshi numbers the messages of each subscription (`sid`) 1, 2, 3, …; a skipped number loses a change. */
  #inSequence(envelope: Json): boolean {
    const { sid, seq } = envelope;
    if (typeof sid !== "number" || typeof seq !== "number") return true;
    const last = this.#seq.get(sid);
    this.#seq.set(sid, seq);
    return last === undefined || seq === last + 1;
  }

  /** A row whose `data` is `parsed` as JSON (key order as built: the stored text, and the dedup identity). */
  #row(frame: KalshiFrame, ts: number, receivedMs: number, market: string, eventType: TickEventType, parsed: BookData & Record<string, unknown>): void {
    const row: TickRow = { timestampMs: ts, receivedMs, market, eventType, data: JSON.stringify(parsed), parsed };
    frame.rows.push(row);
  }

  /** The time of a row that changes `book`: strictly after the book's previous row. */
  #bookTime(book: MarketBook, ts: number): number {
    const at = Math.max(ts, book.lastTs + 1);
    book.lastTs = at;
    return at;
  }

  #snapshot(msg: Json, receivedMs: number, frame: KalshiFrame): void {
    const ticker = text(msg, "market_ticker");
    if (msg.market_id === "") {
      // Kalshi answers an unknown ticker with an empty snapshot and market_id "".
      frame.ignored.unknown_market = (frame.ignored.unknown_market ?? 0) + 1;
      return;
    }
    const yes = snapshotSide(msg, "yes");
    const no = snapshotSide(msg, "no");
    const book = this.#books.get(ticker) ?? new MarketBook();
    this.#books.set(ticker, book);
    book.yes.clear();
    book.no.clear();
    for (const [p, s] of yes) if (s > 0) book.yes.set(p, s);
    for (const [p, s] of no) if (s > 0) book.no.set(p, s);
    const ts = this.#bookTime(book, receivedMs);
    const noId = noOutcomeId(ticker);
    this.#row(frame, ts, receivedMs, ticker, "book", { asset_id: ticker, ...book.sides(book.yes, book.no), hash: "", tick_size: "" });
    this.#row(frame, ts, receivedMs, ticker, "book", { asset_id: noId, ...book.sides(book.no, book.yes), hash: "", tick_size: "" });
  }

  #delta(msg: Json, envelope: Json, receivedMs: number, frame: KalshiFrame): void {
    const ticker = text(msg, "market_ticker");
    const side = msg.side;
    if (side !== "yes" && side !== "no") throw new MalformedMessage("side is not yes or no");
    const dollars = msg.price_dollars_fp ?? msg.price_dollars;
    const at = required(dollars === undefined ? scaled(msg.price, 100) : scaled(dollars), "price");
    const rawDelta = msg.delta_fp ?? msg.delta_dollars_fp ?? msg.delta;
    const change = required(scaled(rawDelta), "delta");
    const book = this.#books.get(ticker);
    const venue = venueMs(msg, envelope);
    if (venue !== undefined && (frame.latestVenueMs === undefined || venue > frame.latestVenueMs)) frame.latestVenueMs = venue;
    if (book === undefined) {
      frame.ignored.delta_before_snapshot = (frame.ignored.delta_before_snapshot ?? 0) + 1;
      return;
    }
    const levels = side === "yes" ? book.yes : book.no;
    const total = Math.max(0, (levels.get(at) ?? 0) + change);
    if (total > 0) levels.set(at, total);
    else levels.delete(at);
    const ts = this.#bookTime(book, venue ?? receivedMs);
    const deltaText = size(Math.abs(change));
    const delta = change < 0 ? `-${deltaText}` : deltaText;
    const own = side === "yes" ? book.yes : book.no;
    const other = side === "yes" ? book.no : book.yes;
    const ownId = side === "yes" ? ticker : noOutcomeId(ticker);
    const otherId = side === "yes" ? noOutcomeId(ticker) : ticker;
    const newSize = size(total);
    this.#row(frame, ts, receivedMs, ticker, "price_change", { asset_id: ownId, price: price(at), size: newSize, side: "BUY", ...book.best(own, other), hash: "", delta });
    this.#row(frame, ts, receivedMs, ticker, "price_change", { asset_id: otherId, price: price(SCALE - at), size: newSize, side: "SELL", ...book.best(other, own), hash: "", delta });
  }

  #trade(msg: Json, envelope: Json, receivedMs: number, frame: KalshiFrame): void {
    const ticker = text(msg, "market_ticker");
    const yesDollars = msg.yes_price_dollars;
    const yes = required(yesDollars === undefined ? scaled(msg.yes_price, 100) : scaled(yesDollars), "yes_price");
    const noDollars = msg.no_price_dollars;
    const no = (noDollars === undefined ? scaled(msg.no_price, 100) : scaled(noDollars)) ?? SCALE - yes;
    const count = required(scaled(msg.count_fp ?? msg.count), "count");
    const taker = msg.taker_side;
    if (taker !== "yes" && taker !== "no") throw new MalformedMessage("taker_side is not yes or no");
    const tradeId = typeof msg.trade_id === "string" ? msg.trade_id : "";
    const ts = venueMs(msg, envelope) ?? receivedMs;
    if (frame.latestVenueMs === undefined || ts > frame.latestVenueMs) frame.latestVenueMs = ts;
    const tail = { fee_rate_bps: "", transaction_hash: tradeId };
    this.#row(frame, ts, receivedMs, ticker, "last_trade_price", { asset_id: ticker, price: price(yes), size: size(count), side: taker === "yes" ? "BUY" : "SELL", ...tail });
    this.#row(frame, ts, receivedMs, ticker, "last_trade_price", { asset_id: noOutcomeId(ticker), price: price(no), size: size(count), side: taker === "no" ? "BUY" : "SELL", ...tail });
  }
}
