import "server-only";
import { createHash } from "node:crypto";
import { AppError } from "@/lib/errors";
import { venueOfTable } from "@/lib/recorder/registry";
import { bind, tickRows, type TickReader } from "@/lib/ticks";
import type { TickSource } from "@/lib/history/outcomes";
import { EpisodeFolder, type FoldedStretch } from "./episodes";
import type { ResolvedPair } from "./pairs";
import { priceSeries, type SeriesRows, type SideInput } from "./series";
import type { SpreadPoint } from "./shapes";

/**
 * Closed UTC days of a pair, folded once and kept (docs/spreads.md, "Closed days"). A day's
 * every-change series gives both answers the pair page asks of it: its episodes and day summary
 * (a `FoldedStretch`, joined with the window's other stretches by `joinStretches`) and its grid
 * points (a grid instant's point is the last change's point at or before it, stamped with the
 * instant). A day is closed once it ended CLOSED_AFTER_MS ago; it is reused only while everything
 * its answer was computed from is the same: both sides' replay starts (the last snapshot at or
 * before the day), their recorded spans (the journal: a lost connection closed later changes
 * them), their fee versions and recorded closes, and the count of the market's rows from the
 * replay start to the day's end in each venue's table (a late row changes it). Anything else is
 * computed again, never served stale.
 */

export const DAY_MS = 86_400_000;
/** A UTC day counts as closed this long after it ended: rows written late by a recorder's batching have landed. */
export const CLOSED_AFTER_MS = 15 * 60_000;
/** Grid steps kept for a closed day (the pair page's 7-day grid, and hourly); other grids are replayed. */
export const KEPT_GRID_STEPS: readonly number[] = [300_000, 3_600_000];
/** Days kept per process (each a day's episodes and at most 312 grid points). */
const MAX_DAYS = 96;

/** A closed day of a pair: its stretch folded and its grid points for each kept step. */
export interface FoldedDay {
  stretch: FoldedStretch;
  grids: ReadonlyMap<number, readonly SpreadPoint[]>;
}

/** What a day's answer is computed from (service.ts `pairInputs` for the day). */
export interface DayInputs {
  a: SideInput;
  b: SideInput;
  rows: SeriesRows;
  /** Each side's replay start (its last snapshot at or before the day, or its first after), undefined where it has none. */
  starts: readonly (number | undefined)[];
}

/** The full UTC days of [since, until] that are closed at `now`, ascending (each day [D, D + 1 day) with the next instant still in the window). */
export function closedDaysOf(since: number, until: number, now: number): number[] {
  const days: number[] = [];
  for (let day = Math.ceil(since / DAY_MS) * DAY_MS; day + DAY_MS <= until && day + DAY_MS <= now - CLOSED_AFTER_MS; day += DAY_MS) days.push(day);
  return days;
}

/**
 * One replay of a day's every-change series: the day folded as a stretch (until the next day's
 * first instant), and the points of each kept grid inside the day.
 */
export async function foldDay(inputs: DayInputs, day: number, size: number, threshold: number): Promise<FoldedDay> {
  const folder = new EpisodeFolder(day, day + DAY_MS, threshold);
  const grids = new Map<number, SpreadPoint[]>(KEPT_GRID_STEPS.map((step) => [step, []]));
  const next = new Map<number, number>(KEPT_GRID_STEPS.map((step) => [step, day]));
  let last: SpreadPoint | undefined;
  const fill = (before: number) => {
    if (last === undefined) return;
    for (const step of KEPT_GRID_STEPS) {
      const points = grids.get(step) ?? [];
      let g = next.get(step) ?? day;
      for (; g < before; g += step) points.push({ ...last, t: g });
      next.set(step, g);
    }
  };
  for await (const points of priceSeries(inputs.a, inputs.b, inputs.rows, { since: day, until: day + DAY_MS - 1, size, threshold, initial: true })) {
    for (const point of points) {
      folder.add(point);
      fill(point.t);
      last = point;
    }
  }
  fill(day + DAY_MS);
  return { stretch: folder.stretch(), grids };
}

/** Rows of a market in a venue's table with from <= timestamp < to (every asset and event type: any late row counts). */
async function marketRowCount(ticks: TickReader, source: TickSource, from: number, to: number): Promise<number> {
  const table = venueOfTable(source.table)?.table;
  if (table === undefined) throw new AppError("not_found", "Not a recorded venue's table.", { resource: "order book" });
  const rows = await tickRows<[number | string]>(
    ticks,
    `SELECT count() FROM ${table} WHERE market = {market:String} AND timestamp >= {from:DateTime64(3)} AND timestamp < {to:DateTime64(3)}`,
    { market: bind.string(source.conditionId), from: bind.time(from), to: bind.time(to) },
  );
  return Number(rows[0]?.[0] ?? 0);
}

/** Everything a closed day's answer depends on, as one string (see the module's comment). */
async function fingerprintOf(ticks: TickReader, pair: ResolvedPair, inputs: DayInputs, day: number): Promise<string> {
  const sides = [pair.a, pair.b];
  const counts = await Promise.all(sides.map((side, i) => marketRowCount(ticks, side.source, Math.min(day, inputs.starts[i] ?? day), day + DAY_MS)));
  const state = sides.map((side, i) => {
    const input = i === 0 ? inputs.a : inputs.b;
    return {
      outcome: input.outcomeId,
      start: inputs.starts[i] ?? null,
      spans: input.spans,
      closedAt: input.closedAt ?? null,
      fee: { venue: side.venue, market: side.venueMarketId, category: side.category, versions: side.marketFees ?? null },
      rows: counts[i],
    };
  });
  return createHash("sha256").update(JSON.stringify(state)).digest("base64url");
}

interface Kept {
  fingerprint: string;
  day: Promise<FoldedDay>;
}

/**
 * The process's closed days, keyed by the pair's two outcomes, size and threshold and the day.
 * A request that finds a day being folded by another (the pair page asks /spreads and /episodes
 * of one window at once) waits for that fold: one replay of the day answers both.
 */
export class SpreadDayCache {
  readonly #days = new Map<string, Kept>();
  readonly #max: number;
  #folded = 0;

  constructor(max = MAX_DAYS) {
    this.#max = max;
  }

  /** The day folded: the kept fold while its fingerprint holds, else folded now (and kept). */
  async day(ticks: TickReader, pair: ResolvedPair, inputs: DayInputs, day: number, size: number, threshold: number): Promise<FoldedDay> {
    const key = JSON.stringify([pair.a.source.table, pair.a.outcomeId, pair.b.source.table, pair.b.outcomeId, size, threshold, day]);
    const fingerprint = await fingerprintOf(ticks, pair, inputs, day);
    const kept = this.#days.get(key);
    if (kept !== undefined && kept.fingerprint === fingerprint) {
      // Most recently used last.
      this.#days.delete(key);
      this.#days.set(key, kept);
      return kept.day;
    }
    const folding = foldDay(inputs, day, size, threshold);
    this.#folded += 1;
    const entry = { fingerprint, day: folding };
    this.#days.delete(key);
    this.#days.set(key, entry);
    while (this.#days.size > this.#max) {
      const oldest = this.#days.keys().next().value;
      if (oldest === undefined) break;
      this.#days.delete(oldest);
    }
    folding.catch(() => {
      if (this.#days.get(key) === entry) this.#days.delete(key);
    });
    return folding;
  }

  clear(): void {
    this.#days.clear();
  }

  /** Days kept now. */
  get size(): number {
    return this.#days.size;
  }

  /** Days folded since the cache was made (a day kept and used again is not folded again). */
  get folded(): number {
    return this.#folded;
  }
}

/** The process-wide cache the pair routes use. */
export const spreadDays = new SpreadDayCache();
