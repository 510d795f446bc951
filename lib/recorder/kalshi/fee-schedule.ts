import type { FeeScheduleVersion } from "../fee-schedule";

/**
 * Kalshi, from 2025-07-01: takers pay 0.07 × C × P × (1 − P) rounded up to the next cent, on
 * every market but the S&P 500 and Nasdaq-100 index series, which pay half the rate; makers pay
 * 0.0175 × C × P × (1 − P) on the markets Kalshi lists as carrying maker fees, nothing elsewhere.
 * The rounding applies to an order's fee (the fee accumulator makes a multi-fill order's total
 * converge to what one fill of the whole order costs). Before 2025-07-01: no schedule in Brier's
 * data, so a fee there is unknown.
 */
export const kalshiFeeSchedule: readonly FeeScheduleVersion[] = [
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
