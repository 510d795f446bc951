import { sql, type SQL } from "drizzle-orm";

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

/** `priceStepsOf(venue)` in SQL, for a venue column: the same table. */
export function priceStepsSql(venue: SQL): SQL<number> {
  const cases = Object.entries(venueIncrementSteps).map(([key, steps]) => sql`when ${sql.raw(`'${key.replaceAll("'", "''")}'`)} then ${sql.raw(String(steps))}::float8`);
  return sql<number>`(case ${venue} ${sql.join(cases, sql` `)} else ${sql.raw(String(DEFAULT_STEPS))}::float8 end)`;
}

/**
 * `roundPrice(value, steps)` in SQL on float8 (a column or a plain reference: it is repeated), the
 * same double for every input: IEEE multiplication and division as in JavaScript, and
 * Math.round's half-up taken from the exact fraction (`x - floor(x)`), because PostgreSQL's
 * round() rounds half to even and `floor(x + 0.5)` rounds 0.49999999999999994 up. Where
 * `value * steps` overflows (|value| above ~1.8e302 at the finest grid) JavaScript's answer is
 * Infinity, which JSON writes as null; PostgreSQL would fail the statement, so such a value is
 * null here (within an ulp of that bound the two may disagree; a price is a probability).
 */
export function roundPriceSql(value: SQL, steps: SQL): SQL<number | null> {
  const x = sql`(abs(${value}) * ${steps})`;
  const rounded = sql`((floor(${x}) + case when ${x} - floor(${x}) >= 0.5 then 1 else 0 end) / ${steps})`;
  return sql<number | null>`(case when abs(${value}) > 1.7976931348623157e308::float8 / ${steps} then null
    when ${rounded} = 0 then 0::float8 when ${value} < 0 then -${rounded} else ${rounded} end)`;
}
