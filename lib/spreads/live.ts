import type { BookLevel } from "@/lib/books/book-state";
import type { BookMessage } from "@/lib/live/bus";
import { feeKey, marketFeeAt, type MarketFee } from "./fees";
import type { PairSide, ResolvedPair } from "./pairs";
import { tradingEndOf } from "./trading-end";
import { pricePair, type Levels, type PriceableBook, type Quote } from "./series";
import type { SpreadPoint, UnknownReason } from "./shapes";
import { walkLeg, type Leg } from "./spread-math";

/**
 * The spread of a pair priced from the two live books (docs/spreads.md, "Live"): the recorders'
 * books as the live bus carries them, priced by the same function as the recorded series. A
 * side is unknown until its book arrives, and while its book is out of sync with the venue's
 * stated best prices (a lost frame, until the next snapshot), and from its market's recorded close
 * on (`market_closed`, as in the recorded series).
 */

class LiveBook implements PriceableBook {
  readonly #side: PairSide;
  /** When the side's market stopped trading, from its recorded outcome: nothing is priced from then on. */
  readonly #closedAt: number | undefined;
  #levels: Levels | undefined;
  #inSync = false;
  #legs: { size: number; fee: MarketFee; buy: Leg; sell: Leg } | undefined;

  constructor(side: PairSide) {
    this.#side = side;
    this.#closedAt = tradingEndOf(side);
  }

  update(message: BookMessage): void {
    const levels = (pairs: [number, number][]): BookLevel[] => pairs.map(([price, size]) => ({ price, size }));
    this.#levels = { bids: levels(message.bids), asks: levels(message.asks) };
    this.#inSync = message.inSync;
    this.#legs = undefined;
  }

  unknownAt(t: number): UnknownReason | null {
    if (this.#closedAt !== undefined && t >= this.#closedAt) return "market_closed";
    if (this.#levels === undefined) return "no_book";
    return this.#inSync ? null : "out_of_sync";
  }

  levels(): Levels {
    return this.#levels ?? { bids: [], asks: [] };
  }

  quote(): Quote {
    const { bids, asks } = this.levels();
    return { bid: bids[0]?.price ?? null, bidSize: bids[0]?.size ?? 0, ask: asks[0]?.price ?? null, askSize: asks[0]?.size ?? 0 };
  }

  feeAt(t: number): MarketFee {
    return marketFeeAt(this.#side, t);
  }

  legs(size: number, fee: MarketFee): { buy: Leg; sell: Leg } {
    if (this.#legs === undefined || this.#legs.size !== size || feeKey(this.#legs.fee) !== feeKey(fee)) {
      const { bids, asks } = this.levels();
      this.#legs = { size, fee, buy: walkLeg(asks, size, fee, "buy"), sell: walkLeg(bids, size, fee, "sell") };
    }
    return this.#legs;
  }
}

export class LiveSpread {
  readonly pair: ResolvedPair;
  readonly #size: number;
  readonly #a: LiveBook;
  readonly #b: LiveBook;
  #latest = 0;

  constructor(pair: ResolvedPair, size: number) {
    this.pair = pair;
    this.#size = size;
    this.#a = new LiveBook(pair.a);
    this.#b = new LiveBook(pair.b);
  }

  /** The topics to follow: each side's venue on the bus and its asset. */
  sides(): Array<{ venue: string; assetId: string }> {
    return [this.pair.a, this.pair.b].map((side) => ({ venue: side.recorder, assetId: side.outcomeId }));
  }

  /** A book of either side changed: the pair priced at its venue time (never earlier than a point already sent). */
  update(message: BookMessage): SpreadPoint | undefined {
    const isA = message.venue === this.pair.a.recorder && message.assetId === this.pair.a.outcomeId;
    const isB = message.venue === this.pair.b.recorder && message.assetId === this.pair.b.outcomeId;
    if (!isA && !isB) return undefined;
    (isA ? this.#a : this.#b).update(message);
    this.#latest = Math.max(this.#latest, message.timestamp);
    return pricePair(this.#latest, this.#a, this.#b, this.#size, 0);
  }
}
