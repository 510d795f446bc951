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
  venue: "polymarket" | "kalshi";
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

/**
 * Polymarket. Before 2026-01-06 no market paid a trading fee. From 2026-01-06 only the short
 * (5- and 15-minute) crypto up/down markets charged takers, and from 2026-02-18 NCAAB and Serie A
 * events created after that date as well: the catalog does not mark those markets, so crypto and
 * sports markets carry the highest of those rates as an upper bound and every other market is
 * exact at zero. From 2026-03-30 takers pay a rate by category on markets with fees enabled
 * (`feesEnabled`, which the catalog does not carry): an upper bound for every category but the
 * fee-free one.
 */
const polymarket: FeeScheduleVersion[] = [
  {
    venue: "polymarket",
    id: "polymarket-fee-free",
    effectiveFrom: "2020-06-01T00:00:00Z",
    source: "Polymarket documentation, Trading fees (before 2026-01-06: no trading fees on any market)",
    rounding: { decimals: 4, mode: "half_up", per: "fill" },
    maker: "0",
    rules: [{ match: {}, rule: { takerRate: "0", exponent: 1, basis: "schedule", note: "No trading fees on any Polymarket market before 2026-01-06." } }],
  },
  {
    venue: "polymarket",
    id: "polymarket-2026-01-06",
    effectiveFrom: "2026-01-06T00:00:00Z",
    source: "Polymarket documentation, Trading fees (taker fees on 5- and 15-minute crypto markets, fee rate 0.25, exponent 2, rounded to 4 decimals)",
    rounding: { decimals: 4, mode: "half_up", per: "fill" },
    maker: "0 (makers receive a rebate of 20% of taker fees)",
    rules: [
      { match: { categories: ["Crypto"] }, rule: { takerRate: "0.25", exponent: 2, basis: "upper_bound", note: "Only 5- and 15-minute crypto up/down markets pay; the catalog does not mark them, so this is the most a crypto market can be charged." } },
      { match: {}, rule: { takerRate: "0", exponent: 1, basis: "schedule", note: "Fee-free: only short crypto markets charge fees under this schedule." } },
    ],
  },
  {
    venue: "polymarket",
    id: "polymarket-2026-02-18",
    effectiveFrom: "2026-02-18T00:00:00Z",
    source: "Polymarket documentation, Trading fees (adds NCAAB and Serie A events created from 2026-02-18 00:00 UTC: fee rate 0.0175, exponent 1)",
    rounding: { decimals: 4, mode: "half_up", per: "fill" },
    maker: "0 (makers receive a rebate of 20–25% of taker fees)",
    rules: [
      { match: { categories: ["Crypto"] }, rule: { takerRate: "0.25", exponent: 2, basis: "upper_bound", note: "Only 5- and 15-minute crypto up/down markets pay; the catalog does not mark them, so this is the most a crypto market can be charged." } },
      { match: { categories: ["Sports"] }, rule: { takerRate: "0.0175", exponent: 1, basis: "upper_bound", note: "Only NCAAB and Serie A events created from 2026-02-18 pay; the catalog does not mark them, so this is the most a sports market can be charged." } },
      { match: {}, rule: { takerRate: "0", exponent: 1, basis: "schedule", note: "Fee-free under this schedule." } },
    ],
  },
  {
    venue: "polymarket",
    id: "polymarket-2026-03-30",
    effectiveFrom: "2026-03-30T00:00:00Z",
    source: "Polymarket documentation, Trading fees (taker rate by category on markets with feesEnabled; makers pay nothing; geopolitics fee-free; fees to 5 decimals)",
    rounding: { decimals: 5, mode: "down", per: "fill" },
    maker: "0 (makers receive a rebate of 20–25% of taker fees)",
    rules: [
      { match: { categories: ["Crypto"] }, rule: { takerRate: "0.07", exponent: 1, basis: "upper_bound", note: "Crypto: 0.07 where the market has fees enabled (the catalog does not carry feesEnabled)." } },
      { match: { categories: ["Economics", "Culture", "Weather", "Other"] }, rule: { takerRate: "0.05", exponent: 1, basis: "upper_bound", note: "Economics, culture, weather and other markets: 0.05 (mentions 0.04) where the market has fees enabled." } },
      { match: { categories: ["Politics", "Finance", "Science & Tech", "World"] }, rule: { takerRate: "0.04", exponent: 1, basis: "upper_bound", note: "Politics, finance and tech: 0.04 where fees are enabled; geopolitics is fee-free, so a world or politics market may pay nothing." } },
      { match: { categories: ["Sports"] }, rule: { takerRate: "0.03", exponent: 1, basis: "upper_bound", note: "Sports: 0.03 where the market has fees enabled." } },
    ],
  },
];

/**
 * Kalshi, from 2025-07-01: takers pay 0.07 × C × P × (1 − P) rounded up to the next cent, on
 * every market but the S&P 500 and Nasdaq-100 index series, which pay half the rate; makers pay
 * 0.0175 × C × P × (1 − P) on the markets Kalshi lists as carrying maker fees, nothing elsewhere.
 * The rounding applies to an order's fee (the fee accumulator makes a multi-fill order's total
 * converge to what one fill of the whole order costs). Before 2025-07-01: no schedule in Brier's
 * data, so a fee there is unknown.
 */
const kalshi: FeeScheduleVersion[] = [
  {
    venue: "kalshi",
    id: "kalshi-2025-07-01",
    effectiveFrom: "2025-07-01T00:00:00Z",
    source: "Kalshi Fee Schedule (effective 2025-07-01) and Kalshi API documentation, Fee Rounding",
    rounding: { decimals: 2, mode: "up", per: "order" },
    maker: "0.0175 × C × P × (1 − P), rounded up, on markets with maker fees; 0 elsewhere",
    rules: [
      { match: { kalshiSeries: ["INX", "INXD", "INXU", "KXINX", "KXINXD", "KXINXU", "NASDAQ100", "NASDAQ100D", "NASDAQ100U", "KXNASDAQ100", "KXNASDAQ100D", "KXNASDAQ100U"] }, rule: { takerRate: "0.035", exponent: 1, basis: "schedule", note: "S&P 500 and Nasdaq-100 index markets: half the general taker rate." } },
      { match: {}, rule: { takerRate: "0.07", exponent: 1, basis: "schedule", note: "General taker fee: 0.07 × C × P × (1 − P), rounded up to the next cent per order." } },
    ],
  },
  {
    venue: "kalshi",
    id: "kalshi-2026-03",
    effectiveFrom: "2026-03-01T00:00:00Z",
    source:
      "Kalshi API documentation, Fee Rounding (each fill's trade fee rounded up to $0.0001, the balance change floored to the member's precision, $0.01 for a non-direct member, the difference a rounding fee, and whole cents of accumulated rounding refunded per order). The page states no effective date: March 2026 is the month issue 35 reported, not confirmed on a venue page.",
    rounding: { decimals: 4, mode: "up", per: "fill_then_balance", balanceDecimals: 2 },
    maker: "fee_multiplier × 0.0175 × C × P × (1 − P) on series with maker fees (fee_type quadratic_with_maker_fees); 0 elsewhere",
    rules: [
      { match: { kalshiSeries: ["INX", "INXD", "INXU", "KXINX", "KXINXD", "KXINXU", "NASDAQ100", "NASDAQ100D", "NASDAQ100U", "KXNASDAQ100", "KXNASDAQ100D", "KXNASDAQ100U"] }, rule: { takerRate: "0.035", exponent: 1, basis: "schedule", note: "S&P 500 and Nasdaq-100 index markets: half the general taker rate (used where the series' fee_multiplier was not read)." } },
      { match: {}, rule: { takerRate: "0.07", exponent: 1, basis: "schedule", note: "General taker fee 0.07 × C × P × (1 − P), used where the series' fee_type and fee_multiplier were not read." } },
    ],
  },
];

export const feeSchedules: readonly FeeScheduleVersion[] = [...polymarket, ...kalshi];
