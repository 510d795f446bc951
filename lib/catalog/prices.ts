/**
 * Prices as the venue quotes them. Venues quote on a grid (Kalshi in cents, with deci-cent tails on
 * some markets; Polymarket in 0.01 or 0.001, down to 0.0001); prices pmxt-core derives (Kalshi's
 * No side is 1 - Yes, its change is the negated Yes change) carry floating-point noise such as
 * 1 - 0.85 = 0.15000000000000002. The API rounds every price and price change to the finest
 * increment the venue quotes: a price on the grid never moves, noise always goes.
 */
const venueIncrementSteps: Record<string, number> = {
  // 0.001: Kalshi's deci-cent price levels (its linear-cent markets are a subset of this grid).
  kalshi: 1_000,
  "kalshi-demo": 1_000,
  // 0.0001: Polymarket's finest tick size (0.01 and 0.001 ticks are subsets).
  polymarket: 10_000,
  polymarket_us: 10_000,
};

/** Venues without a documented grid: 1e-6 removes floating-point noise and nothing a venue sends. */
const DEFAULT_STEPS = 1_000_000;

/** Steps per 1.0 of the venue's finest price increment (1000 for Kalshi = 0.1 cent). */
export function priceStepsOf(venue: string): number {
  return venueIncrementSteps[venue] ?? DEFAULT_STEPS;
}

/**
 * Rounds a price (or price change) to `steps` per unit. Dividing an integer by an integer step
 * count gives the double nearest the decimal (57 / 100 = 0.57), which multiplying by 0.01 does not.
 */
export function roundPrice(value: number, steps: number): number {
  // Half away from zero, so a change and its negation (Kalshi's Yes and No) round to opposite values.
  const rounded = Math.round(Math.abs(value) * steps) / steps;
  if (rounded === 0) return 0;
  return value < 0 ? -rounded : rounded;
}
