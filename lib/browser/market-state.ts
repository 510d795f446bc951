import "client-only";
import { isCandleInterval, isCandleRange, type CandleInterval, type CandleRange } from "@/lib/sql/patterns";

/**
 * The market page's chart state lives in its URL (`?outcome=1&interval=5m&range=24h`), so a view
 * of a chart can be shared or reloaded; unknown values fall back to the defaults.
 */
export interface MarketChartState {
  /** Index of the charted outcome in the market's outcomes. */
  outcome: number;
  interval: CandleInterval;
  range: CandleRange;
}

export const defaultMarketChartState: MarketChartState = { outcome: 0, interval: "1h", range: "7d" };

export function parseMarketChartState(params: URLSearchParams, outcomes: number): MarketChartState {
  const interval = params.get("interval") ?? "";
  const range = params.get("range") ?? "";
  const outcome = Number(params.get("outcome") ?? "0");
  return {
    outcome: Number.isInteger(outcome) && outcome >= 0 && outcome < Math.max(1, outcomes) ? outcome : 0,
    interval: isCandleInterval(interval) ? interval : defaultMarketChartState.interval,
    range: isCandleRange(range) ? range : defaultMarketChartState.range,
  };
}

/** The page URL's query string for a state ("" for the defaults). */
export function marketChartSearch(state: MarketChartState): string {
  const params = new URLSearchParams();
  if (state.outcome !== 0) params.set("outcome", String(state.outcome));
  if (state.interval !== defaultMarketChartState.interval) params.set("interval", state.interval);
  if (state.range !== defaultMarketChartState.range) params.set("range", state.range);
  const search = params.toString();
  return search === "" ? "" : `?${search}`;
}

export const rangeSeconds: Record<CandleRange, number> = { "6h": 6 * 3600, "24h": 86_400, "7d": 7 * 86_400, "30d": 30 * 86_400 };
export const intervalSeconds: Record<CandleInterval, number> = { "1m": 60, "5m": 300, "1h": 3600, "1d": 86_400 };

/**
 * When the first recorded candle starts well after the range's start, the range is longer than
 * the recorded data: the seconds actually covered, else undefined.
 */
export function recordedSpan(firstCandle: number | undefined, state: Pick<MarketChartState, "interval" | "range">, now: number = Date.now() / 1000): number | undefined {
  if (firstCandle === undefined) return undefined;
  const start = now - rangeSeconds[state.range];
  const slack = Math.max(intervalSeconds[state.interval], rangeSeconds[state.range] * 0.05);
  return firstCandle - start > slack ? Math.max(0, now - firstCandle) : undefined;
}
