import type { BookLevel } from "@/lib/books/book-state";
import { marginalFeePerContract, PRICE_UNITS, SIZE_UNITS, takerFee, type Fill, type MarketFee } from "./fees";

/**
 * The spread between two books of one question, from their levels (docs/spreads.md, "What a
 * point says"). Pure: the series (./series.ts), the live stream and the tests' oracle all price a
 * pair of books through these functions.
 *
 * Book A holds outcome X on one venue, book B an outcome that pays exactly when X does on the
 * other venue (the same Yes for an identity, the other's No for a complement). "aToB" buys X on
 * A at A's asks and sells it on B at B's bids (on a binary venue, selling Yes at b is buying No at
 * 1 − b: the same position and, with a P × (1 − P) fee, the same fee); "bToA" the reverse. Held
 * to resolution the two legs cancel, so the edge is what the sale brought minus what the purchase
 * cost minus both venues' taker fees.
 */

export type Direction = "aToB" | "bToA";
export const directions: readonly Direction[] = ["aToB", "bToA"];

/** Money in units of 1/(PRICE_UNITS × SIZE_UNITS) dollar: a price × size product of two exact values is an exact integer. */
const MONEY_UNITS = PRICE_UNITS * SIZE_UNITS;

/** One side's leg of a trade of `size` contracts: walk one side of a book, best level first. */
export interface Leg {
  /** Contracts the walk filled (less than asked when the side is too thin). */
  filled: number;
  /** Price × size summed over the fills, in dollars. */
  notional: number;
  /** The venue's taker fee of the order, in dollars (0 when the venue's fee is unknown: see `feeKnown`). */
  fee: number;
  feeKnown: boolean;
  /** Worst price reached. */
  worstPrice: number | null;
}

/** Walks `levels` (best first) for `size` contracts and prices the order's fee (`side`: buying at the asks or selling at the bids). */
export function walkLeg(levels: readonly BookLevel[], size: number, fee: MarketFee, side: "buy" | "sell"): Leg {
  const wanted = Math.round(size * SIZE_UNITS);
  let filledUnits = 0;
  let moneyUnits = 0;
  let worstPrice: number | null = null;
  const fills: Fill[] = [];
  for (const level of levels) {
    if (filledUnits >= wanted) break;
    const take = Math.min(wanted - filledUnits, Math.round(level.size * SIZE_UNITS));
    if (take <= 0) continue;
    filledUnits += take;
    moneyUnits += Math.round(level.price * PRICE_UNITS) * take;
    worstPrice = level.price;
    fills.push({ price: level.price, size: take / SIZE_UNITS });
  }
  return {
    filled: filledUnits / SIZE_UNITS,
    notional: moneyUnits / MONEY_UNITS,
    fee: fee.known ? takerFee(fee, fills, side) : 0,
    feeKnown: fee.known,
    worstPrice,
  };
}

/** The edge of one direction for `size` contracts, after both venues' fees. */
export interface Executable {
  /** Net edge per contract after fees, dollars; null when either book is thinner than `size`. */
  perContract: number | null;
  /** Net edge of the whole trade, dollars; null as above. */
  total: number | null;
  /** Contracts both books could fill (at most `size`). */
  fillable: number;
  /** Both legs' fees, dollars (null when either venue's fee is unknown). */
  fees: number | null;
  /** The volume-weighted prices paid and received. */
  buyPrice: number | null;
  sellPrice: number | null;
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

/** Prices one direction from its two legs. A fee that is unknown leaves the net unknown. */
export function executable(buy: Leg, sell: Leg, size: number): Executable {
  const fillable = Math.min(buy.filled, sell.filled);
  const feesKnown = buy.feeKnown && sell.feeKnown;
  const fees = feesKnown ? round6(buy.fee + sell.fee) : null;
  const complete = buy.filled >= size && sell.filled >= size;
  const total = complete && fees !== null ? round6(sell.notional - buy.notional - fees) : null;
  return {
    perContract: total === null ? null : round6(total / size),
    total,
    fillable,
    fees,
    buyPrice: buy.filled > 0 ? round6(buy.notional / buy.filled) : null,
    sellPrice: sell.filled > 0 ? round6(sell.notional / sell.filled) : null,
  };
}

/**
 * Contracts that can be bought on one book and sold on the other while each contract's edge, after
 * each venue's fee rate on it (before the venue's rounding), stays above `threshold`: the size
 * available at that instant.
 */
export function availableSize(asks: readonly BookLevel[], bids: readonly BookLevel[], buyFee: MarketFee, sellFee: MarketFee, threshold: number): number {
  let i = 0;
  let j = 0;
  let askLeft = asks[0]?.size ?? 0;
  let bidLeft = bids[0]?.size ?? 0;
  let units = 0;
  while (i < asks.length && j < bids.length) {
    const ask = asks[i];
    const bid = bids[j];
    if (ask === undefined || bid === undefined) break;
    const edge = bid.price - ask.price - marginalFeePerContract(buyFee, ask.price) - marginalFeePerContract(sellFee, bid.price);
    if (!(edge > threshold)) break;
    const take = Math.min(askLeft, bidLeft);
    units += Math.round(take * SIZE_UNITS);
    askLeft -= take;
    bidLeft -= take;
    if (askLeft <= 1e-12) {
      i += 1;
      askLeft = asks[i]?.size ?? 0;
    }
    if (bidLeft <= 1e-12) {
      j += 1;
      bidLeft = bids[j]?.size ?? 0;
    }
  }
  return units / SIZE_UNITS;
}
