import "client-only";
import { parseSqlTime, toNumber, type Candle, type SqlRows } from "./sql-answers";

/**
 * What the SQL console can chart from a result: a time column (Date/DateTime type) on the
 * horizontal axis and numeric columns as lines, or candles when the result has open, high, low
 * and close columns.
 */

const TIME_TYPE = /^(Nullable\()?(Date|DateTime)/;
const NUMERIC_TYPE = /^(Nullable\()?(U?Int|Float|Decimal)/;
const OHLC = ["open", "high", "low", "close"] as const;

export interface ChartColumns {
  time: string[];
  numeric: string[];
  /** The result has open/high/low/close columns (any case): it can be drawn as candles. */
  ohlc: boolean;
}

export function chartColumns(answer: SqlRows): ChartColumns | undefined {
  const columns = answer.meta.columns;
  const time = columns.filter((c) => TIME_TYPE.test(c.type)).map((c) => c.name);
  const numeric = columns.filter((c) => NUMERIC_TYPE.test(c.type)).map((c) => c.name);
  if (time.length === 0 || numeric.length === 0) return undefined;
  const lower = new Set(numeric.map((name) => name.toLowerCase()));
  return { time, numeric, ohlc: OHLC.every((name) => lower.has(name)) };
}

export type LinePoints = { name: string; points: { time: number; value: number }[] }[];

/** One line per chosen numeric column, points in time order. */
export function lineSeries(answer: SqlRows, time: string, columns: readonly string[]): LinePoints {
  return columns.map((column) => ({
    name: column,
    points: answer.data
      .map((row) => ({ time: parseSqlTime(row[time]), value: toNumber(row[column]) }))
      .filter((p): p is { time: number; value: number } => p.time !== undefined && p.value !== undefined)
      .sort((a, b) => a.time - b.time),
  }));
}

/** The result's open/high/low/close columns (matched case-insensitively) as candles; `ticks` or `count` when present. */
export function resultCandles(answer: SqlRows, time: string): Candle[] {
  const names = new Map(answer.meta.columns.map((c) => [c.name.toLowerCase(), c.name]));
  const pick = (row: Record<string, unknown>, name: string) => toNumber(row[names.get(name) ?? name]);
  const candles: Candle[] = [];
  for (const row of answer.data) {
    const t = parseSqlTime(row[time]);
    const [open, high, low, close] = OHLC.map((name) => pick(row, name));
    if (t === undefined || open === undefined || high === undefined || low === undefined || close === undefined) continue;
    candles.push({ time: t, open, high, low, close, ticks: pick(row, "ticks") ?? pick(row, "count") ?? 0 });
  }
  return candles.sort((a, b) => a.time - b.time);
}

/** The default chart of a result: candles when OHLC is present, else up to 6 numeric columns as lines. */
export function defaultChart(columns: ChartColumns): { kind: "line" | "candles"; time: string; values: string[] } {
  return {
    kind: columns.ohlc ? "candles" : "line",
    time: columns.time[0] ?? "",
    values: columns.numeric.slice(0, 6),
  };
}
