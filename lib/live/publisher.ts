import { randomUUID } from "node:crypto";
import type { AssetBook } from "@/lib/books/book-state";
import type { BookMessage, LiveBus, SnapshotReply, TradeMessage, Unsubscribe } from "./bus";

/** What the recorder offers the live path: which assets it records, and their live books. */
export interface LiveBookSource {
  isRecording(assetId: string): boolean;
  book(assetId: string): AssetBook | undefined;
}

/** A `last_trade_price` row as the recorder normalized it. */
export interface TradeRow {
  timestampMs: number;
  market: string;
  data: string;
}

interface TradeData {
  asset_id?: unknown;
  price?: unknown;
  size?: unknown;
  side?: unknown;
  transaction_hash?: unknown;
}

function bookMessage(venue: string, book: AssetBook, epoch: string, seq: number): BookMessage {
  const view = book.view();
  return {
    venue,
    assetId: view.assetId,
    market: view.market,
    epoch,
    seq,
    timestamp: view.timestamp,
    bids: view.bids.map((level) => [level.price, level.size]),
    asks: view.asks.map((level) => [level.price, level.size]),
    inSync: view.inSync,
  };
}

/**
 * The recorder's side of the live path: every touched book (after a whole venue frame) and every
 * trade go to the bus, and snapshot requests for recorded assets are answered from the live books.
 */
export class LivePublisher {
  readonly venue: string;
  readonly epoch = randomUUID();
  readonly #bus: LiveBus;
  readonly #seq = new Map<string, number>();
  #source: LiveBookSource | undefined;
  #stopServing: Unsubscribe | undefined;
  published = 0;

  constructor(bus: LiveBus, venue = "polymarket") {
    this.#bus = bus;
    this.venue = venue;
  }

  /** Serves snapshot requests from `source` (the recorder) from now on. */
  attach(source: LiveBookSource): void {
    this.#source = source;
    this.#stopServing?.();
    this.#stopServing = this.#bus.serveSnapshots(this.venue, (assetId) => this.#snapshot(assetId));
  }

  detach(): void {
    this.#stopServing?.();
    this.#stopServing = undefined;
    this.#source = undefined;
  }

  /** Publishes one asset's book as it is now. Books not yet snapshotted are partial and are not sent. */
  publishBook(book: AssetBook): void {
    if (!book.hasSnapshot) return;
    const seq = (this.#seq.get(book.assetId) ?? 0) + 1;
    this.#seq.set(book.assetId, seq);
    this.published += 1;
    this.#bus.publishBook(bookMessage(this.venue, book, this.epoch, seq));
  }

  /** Publishes one `last_trade_price` row as a pmxt trade. */
  publishTrade(row: TradeRow): void {
    let data: TradeData;
    try {
      data = JSON.parse(row.data) as TradeData;
    } catch {
      return;
    }
    const assetId = typeof data.asset_id === "string" ? data.asset_id : undefined;
    const price = Number(data.price);
    const amount = Number(data.size);
    if (assetId === undefined || !Number.isFinite(price) || !Number.isFinite(amount)) return;
    const side = typeof data.side === "string" ? data.side.toLowerCase() : "";
    const hash = typeof data.transaction_hash === "string" && data.transaction_hash !== "" ? data.transaction_hash : undefined;
    const message: TradeMessage = {
      venue: this.venue,
      assetId,
      market: row.market,
      id: hash ?? `${assetId}-${row.timestampMs}`,
      timestamp: row.timestampMs,
      price,
      amount,
      side: side === "buy" || side === "sell" ? side : "unknown",
    };
    this.published += 1;
    this.#bus.publishTrade(message);
  }

  /** Forgets the sequence of assets no longer recorded. */
  dropped(assetIds: Iterable<string>): void {
    for (const assetId of assetIds) this.#seq.delete(assetId);
  }

  #snapshot(assetId: string): SnapshotReply | undefined {
    const source = this.#source;
    if (source === undefined || !source.isRecording(assetId)) return undefined;
    const book = source.book(assetId);
    if (book === undefined || !book.hasSnapshot) return { recorded: true, book: null };
    return { recorded: true, book: bookMessage(this.venue, book, this.epoch, this.#seq.get(assetId) ?? 0) };
  }
}
