import "client-only";
import type { SqlResult } from "@/lib/sql/execute";

/**
 * The parsers that turn POST /v0/sql answers to the published patterns (built in
 * lib/sql/patterns.ts) into the market page's chart data.
 */

/** What the parsers read of a POST /v0/sql answer: the rows and the columns' names and types. */
export type SqlRows = Pick<SqlResult, "data"> & { meta: Pick<SqlResult["meta"], "columns"> };


/** `YYYY-MM-DD hh:mm:ss[.fff]` (UTC, as /v0/sql renders DateTime) or ISO -> unix seconds. */
export function parseSqlTime(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value !== "string") return undefined;
  const iso = /^\d{4}-\d\d-\d\d$/.test(value) ? `${value}T00:00:00Z` : /[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value.replace(" ", "T") : `${value.replace(" ", "T")}Z`;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms / 1000;
}

export function toNumber(value: unknown): number | undefined {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
}

export interface Candle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  ticks: number;
}

/** The candle pattern's rows (whatever the bucket's alias: its first column) as chart candles, oldest first. */
export function candlesFromAnswer(answer: SqlRows): Candle[] {
  const timeColumn = answer.meta.columns[0]?.name ?? "hour";
  const candles: Candle[] = [];
  for (const row of answer.data) {
    const time = parseSqlTime(row[timeColumn]);
    const open = toNumber(row.open);
    const high = toNumber(row.high);
    const low = toNumber(row.low);
    const close = toNumber(row.close);
    if (time === undefined || open === undefined || high === undefined || low === undefined || close === undefined) continue;
    candles.push({ time, open, high, low, close, ticks: toNumber(row.ticks) ?? 0 });
  }
  return candles.sort((a, b) => a.time - b.time);
}

export interface BookLevel {
  price: number;
  size: number;
}

export interface BookSnapshot {
  time: number;
  /** Best (highest) bid first. */
  bids: BookLevel[];
  /** Best (lowest) ask first. */
  asks: BookLevel[];
}

function parseLevels(raw: unknown): BookLevel[] {
  let value: unknown = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw) as unknown;
    } catch {
      return [];
    }
  }
  if (!Array.isArray(value)) return [];
  const levels: BookLevel[] = [];
  for (const entry of value) {
    // Recorded levels are [price, size] pairs; objects ({price, size}) are accepted too.
    const price = toNumber(Array.isArray(entry) ? entry[0] : (entry as { price?: unknown } | null)?.price);
    const size = toNumber(Array.isArray(entry) ? entry[1] : (entry as { size?: unknown } | null)?.size);
    if (price !== undefined && size !== undefined) levels.push({ price, size });
  }
  return levels;
}

/** The newest snapshot of the book pattern's answer, levels sorted best first whatever order was stored. */
export function latestBookFromAnswer(answer: SqlRows): BookSnapshot | undefined {
  let best: BookSnapshot | undefined;
  for (const row of answer.data) {
    const time = parseSqlTime(row.timestamp);
    if (time === undefined || (best !== undefined && best.time >= time)) continue;
    best = {
      time,
      bids: parseLevels(row.bids).sort((a, b) => b.price - a.price),
      asks: parseLevels(row.asks).sort((a, b) => a.price - b.price),
    };
  }
  return best;
}

export interface DepthPoint {
  price: number;
  cumulative: number;
}

/** Cumulative size from the best price outwards, for each side of a book. */
export function cumulativeDepth(book: BookSnapshot): { bids: DepthPoint[]; asks: DepthPoint[] } {
  const accumulate = (levels: BookLevel[]) => {
    let total = 0;
    return levels.map((level) => ({ price: level.price, cumulative: (total += level.size) }));
  };
  return { bids: accumulate(book.bids), asks: accumulate(book.asks) };
}

/** One depth-over-time bucket: how many books were recorded, and the spread of their level counts. */
export interface LevelBandPoint {
  time: number;
  books: number;
  bid: { p10: number; p50: number; p90: number };
  ask: { p10: number; p50: number; p90: number };
}

/** Reads depthHistorySql's answer (lib/sql/patterns.ts), oldest first; a row missing a number is skipped. */
export function levelBandsFromAnswer(answer: SqlRows): LevelBandPoint[] {
  const points: LevelBandPoint[] = [];
  for (const row of answer.data) {
    const time = parseSqlTime(row.bucket);
    const books = toNumber(row.books);
    const side = (name: "bid" | "ask") => {
      const [p10, p50, p90] = [toNumber(row[`${name}_p10`]), toNumber(row[`${name}_p50`]), toNumber(row[`${name}_p90`])];
      return p10 === undefined || p50 === undefined || p90 === undefined ? undefined : { p10, p50, p90 };
    };
    const [bid, ask] = [side("bid"), side("ask")];
    if (time !== undefined && books !== undefined && bid !== undefined && ask !== undefined) points.push({ time, books, bid, ask });
  }
  return points.sort((a, b) => a.time - b.time);
}
