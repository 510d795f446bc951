/**
 * The venues' published trading-fee schedules, as data (docs/spreads.md, "Fees"): one entry per
 * version of a venue's schedule, with the date it took effect; an instant is priced with the
 * version in force then. Where the schedule cannot tell the fee of a market from what Brier knows
 * of it, the entry says so (`basis`), and the answer carries it, instead of assuming zero.
 *
 * Rates are decimal strings and are turned into exact integer ratios (lib/spreads/fees.ts): a fee
 * is computed in integers and rounded as the venue rounds it, never in binary floating point
 * (0.07 × 100 × 0.5 × 0.5 is 1.7500000000000002 in doubles, which a round-up would make $1.76).
 */

import type { Category } from "@/lib/catalog/categories";

/** How the venue rounds a fee to money. */
export interface FeeRounding {
  /** Decimal places of the charged fee (2 = cents). */
  decimals: number;
  /** `up`: to the next unit; `down`: truncated; `half_up`: to the nearest, halves up. */
  mode: "up" | "down" | "half_up";
  /**
   * `order`: the rounding applies to the order's whole fee (one taking order walking several
   * levels); `fill`: to each fill (level); `fill_then_balance`: each fill's fee rounded (decimals,
   * mode), then the fill's balance change floored to `balanceDecimals` (the difference charged as a
   * rounding fee) and whole units of that precision refunded from the order's accumulated
   * rounding (Kalshi's fee accumulator).
   */
  per: "order" | "fill" | "fill_then_balance";
  /** With `fill_then_balance`: the balance precision (2 = cents). */
  balanceDecimals?: number;
}

/** A fee of `rate × contracts × (price × (1 − price))^exponent` dollars for a taker. */
export interface FeeRule {
  /** The taker rate, as the venue writes it ("0.07"). "0" for a market without taker fees. */
  takerRate: string;
  exponent: 1 | 2;
  /**
   * `market`: read from the market's own fee fields at the venue (lib/recorder/<venue>/fees.ts);
   * `schedule`: the venue's published schedule gives this market's fee from what Brier knows of it
   * (venue, ticker, category), used where the market's fields are missing;
   * `upper_bound`: the venue charges this rate only on some markets of the group and Brier cannot
   * tell which, so the answer's fee is the most the market can be charged (a spread positive after
   * it is positive after the real fee).
   */
  basis: "market" | "schedule" | "upper_bound";
  /** Why this rule applies (shown with the answer). */
  note: string;
}

export interface FeeScheduleVersion {
  /** The recorded venue (lib/recorder/<venue>/venue.ts `id`). */
  venue: string;
  /** Stable id of this version, shown in answers. */
  id: string;
  /** The instant (UTC) from which this version is in force, inclusive. */
  effectiveFrom: string;
  /** Where the venue published it (named in docs/spreads.md, where the sources are described). */
  source: string;
  rounding: FeeRounding;
  /** Makers' fee rule where it differs from the taker's (informational: executable spreads take both books). */
  maker: string;
  /** Rules checked in order: the first whose `match` holds gives the fee. */
  rules: Array<{ match: FeeMatch; rule: FeeRule }>;
}

/** Which markets a rule covers: by Kalshi series (the ticker's first segment), or by catalog category; `{}` matches every market. */
export interface FeeMatch {
  kalshiSeries?: readonly string[];
  categories?: readonly Category[];
}
