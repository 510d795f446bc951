import type { FeeScheduleVersion } from "../fee-schedule";

/**
 * Polymarket. Before 2026-01-06 no market paid a trading fee. From 2026-01-06 only the short
 * (5- and 15-minute) crypto up/down markets charged takers, and from 2026-02-18 NCAAB and Serie A
 * events created after that date as well: the catalog does not mark those markets, so crypto and
 * sports markets carry the highest of those rates as an upper bound and every other market is
 * exact at zero. From 2026-03-30 takers pay a rate by category on markets with fees enabled
 * (`feesEnabled`, which the catalog does not carry): an upper bound for every category but the
 * fee-free one.
 */
export const polymarketFeeSchedule: readonly FeeScheduleVersion[] = [
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
