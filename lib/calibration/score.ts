/**
 * The scoring math of calibration (docs/calibration.md), as pure functions over sums so the same
 * finishing step serves the sums ClickHouse aggregates and the sums a test adds up by hand.
 *
 * - A forecast `f` is the market's Yes price in [0, 1]; an outcome `y` is what Yes settled at:
 *   1, 0, or the settlement value of a split (0.5 for a 50-50). A voided market has no outcome and
 *   is never scored.
 * - Brier score: mean of (f − y)².
 * - Log loss: mean of −(y·ln f + (1 − y)·ln(1 − f)) with f clipped to [ε, 1 − ε], ε = 0.001: the
 *   finest tick either recorded venue quotes (Polymarket's 0.001), so every price a venue can show
 *   is left as it is, and a price of exactly 0 or 1 costs ln(1000) ≈ 6.9 instead of infinity.
 * - Reliability bins: `bins` equal widths over [0, 1]; a forecast of exactly 1 falls in the last.
 *   Each bin: count, mean forecast, observed frequency (mean y), and the Wilson score interval of
 *   that frequency at 95 % (z = 1.959964), which stays inside [0, 1] and is honest for small counts.
 */

export const LOG_LOSS_EPSILON = 0.001;
export const WILSON_Z = 1.959964;

/** One scored forecast. */
export interface Forecast {
  forecast: number;
  outcome: number;
}

/** The sums a set of forecasts reduces to: what ClickHouse returns per (venue, horizon, bin). */
export interface ScoreSums {
  count: number;
  sumForecast: number;
  sumOutcome: number;
  sumSquaredError: number;
  sumLogLoss: number;
}

export interface ReliabilityBin {
  /** Bin index, 0-based. */
  bin: number;
  lower: number;
  upper: number;
  count: number;
  meanForecast: number | null;
  observedFrequency: number | null;
  /** Wilson 95 % interval of the observed frequency; null for an empty bin. */
  wilsonLow: number | null;
  wilsonHigh: number | null;
}

export interface Scores {
  count: number;
  brier: number | null;
  logLoss: number | null;
  meanForecast: number | null;
  observedFrequency: number | null;
}

export const emptySums = (): ScoreSums => ({ count: 0, sumForecast: 0, sumOutcome: 0, sumSquaredError: 0, sumLogLoss: 0 });

export function clipForecast(f: number): number {
  return Math.min(1 - LOG_LOSS_EPSILON, Math.max(LOG_LOSS_EPSILON, f));
}

export function logLossOf(forecast: number, outcome: number): number {
  const f = clipForecast(forecast);
  return -(outcome * Math.log(f) + (1 - outcome) * Math.log(1 - f));
}

/** The bin a forecast falls in. */
export function binOf(forecast: number, bins: number): number {
  return Math.min(bins - 1, Math.max(0, Math.floor(forecast * bins)));
}

export function addForecast(sums: ScoreSums, { forecast, outcome }: Forecast): void {
  sums.count += 1;
  sums.sumForecast += forecast;
  sums.sumOutcome += outcome;
  sums.sumSquaredError += (forecast - outcome) ** 2;
  sums.sumLogLoss += logLossOf(forecast, outcome);
}

export function mergeSums(into: ScoreSums, from: ScoreSums): void {
  into.count += from.count;
  into.sumForecast += from.sumForecast;
  into.sumOutcome += from.sumOutcome;
  into.sumSquaredError += from.sumSquaredError;
  into.sumLogLoss += from.sumLogLoss;
}

export function scoresOf(sums: ScoreSums): Scores {
  if (sums.count === 0) return { count: 0, brier: null, logLoss: null, meanForecast: null, observedFrequency: null };
  return {
    count: sums.count,
    brier: sums.sumSquaredError / sums.count,
    logLoss: sums.sumLogLoss / sums.count,
    meanForecast: sums.sumForecast / sums.count,
    observedFrequency: sums.sumOutcome / sums.count,
  };
}

/**
 * Wilson score interval of a proportion `successes / n` at `z`. `successes` may be fractional
 * (a 50-50 split counts half): the formula needs only the observed proportion and n.
 */
export function wilsonInterval(successes: number, n: number, z = WILSON_Z): { low: number; high: number } | null {
  if (n <= 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** The reliability diagram's bins from per-bin sums (missing bins are empty). */
export function reliabilityBins(perBin: ReadonlyMap<number, ScoreSums>, bins: number): ReliabilityBin[] {
  const out: ReliabilityBin[] = [];
  for (let bin = 0; bin < bins; bin += 1) {
    const sums = perBin.get(bin) ?? emptySums();
    const wilson = wilsonInterval(sums.sumOutcome, sums.count);
    out.push({
      bin,
      lower: bin / bins,
      upper: (bin + 1) / bins,
      count: sums.count,
      meanForecast: sums.count === 0 ? null : sums.sumForecast / sums.count,
      observedFrequency: sums.count === 0 ? null : sums.sumOutcome / sums.count,
      wilsonLow: wilson?.low ?? null,
      wilsonHigh: wilson?.high ?? null,
    });
  }
  return out;
}

/** Scores and bins of a list of forecasts, computed here (the drill-down and tests; the API sums in ClickHouse). */
export function scoreForecasts(forecasts: readonly Forecast[], bins: number): { scores: Scores; bins: ReliabilityBin[] } {
  const total = emptySums();
  const perBin = new Map<number, ScoreSums>();
  for (const f of forecasts) {
    addForecast(total, f);
    const bin = binOf(f.forecast, bins);
    let sums = perBin.get(bin);
    if (sums === undefined) perBin.set(bin, (sums = emptySums()));
    addForecast(sums, f);
  }
  return { scores: scoresOf(total), bins: reliabilityBins(perBin, bins) };
}
