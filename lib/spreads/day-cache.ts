import "server-only";
import { createHash } from "node:crypto";
import { AppError } from "@/lib/errors";
import { venueOfTable } from "@/lib/recorder/registry";
import { bind, tickRows, type Bind, type TickReader } from "@/lib/ticks";
import { ReplayBatch } from "@/lib/books/book-state";
import type { TickSource } from "@/lib/history/outcomes";
import { EpisodeFolder, type FoldedStretch } from "./episodes";
import type { ResolvedPair } from "./pairs";
import { priceSeries, type SeriesRows, type SideInput } from "./series";
import type { SpreadPoint } from "./shapes";
import { processGlobals } from "@/lib/process-globals.mjs";

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
 *
 * A closed day's merged rows (both books, from each side's replay start to the day's end) are kept
 * too, whatever the size and threshold, while what they were read from holds (each side's replay
 * start and the count of the market's rows up to the day's end): a day asked at another size is
 * replayed from them in memory, without the engine's read and parse (most of a replay's time). So
 * are a window's partial days' rows (its head and tail, keyed by their exact bounds), briefly: the
 * page's next size on the same window replays them from memory too.
 * A fold registers every day of its window before it folds any, so a request that arrives while
 * another fold (the fold ahead: ./days-ahead.ts) runs takes the days that fold has not started yet
 * and waits only for the ones it is folding.
 */

export const DAY_MS = 86_400_000;
/** A UTC day counts as closed this long after it ended: rows written late by a recorder's batching have landed. */
export const CLOSED_AFTER_MS = 15 * 60_000;
/** Grid steps kept for a closed day (the pair page's 7-day grid, and hourly); other grids are replayed. */
export const KEPT_GRID_STEPS: readonly number[] = [300_000, 3_600_000];
/** Days kept per process (each a day's episodes and at most 312 grid points). */
const MAX_DAYS = 96;
/**
 * Merged rows kept per process, in all (lib/books `ReplayBatch` columns: 43 bytes a row, a
 * snapshot's levels as parsed values besides: ~26 MB and the snapshots at most); a part with
 * more than a quarter of it is not kept as rows (it is read again at another size). The rows of
 * partial days (a window's head and tail) take at most a quarter of it, the oldest dropped first:
 * they are kept briefly, for the same window at another size, and never push out more than that
 * of the closed days' rows.
 */
const MAX_KEPT_ROWS = 600_000;

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
 * A stretch of a window: [since, until] replayed with its opening point, its episodes folded up to
 * `end` (the next stretch's first instant, or the window's end), a closed day when `day`.
 */
export interface WindowPart {
  since: number;
  until: number;
  end: number;
  day: boolean;
}

/**
 * One replay of a stretch's every-change series: the stretch folded (until `end`), and the points
 * of each kept grid inside it (the grid instants from `since` to `until`).
 */
export async function foldStretch(inputs: DayInputs, part: Omit<WindowPart, "day">, size: number, threshold: number): Promise<FoldedDay> {
  const folder = new EpisodeFolder(part.since, part.end, threshold);
  const grids = new Map<number, SpreadPoint[]>(KEPT_GRID_STEPS.map((step) => [step, []]));
  const next = new Map<number, number>(KEPT_GRID_STEPS.map((step) => [step, Math.ceil(part.since / step) * step]));
  let last: SpreadPoint | undefined;
  const fill = (before: number) => {
    if (last === undefined) return;
    for (const step of KEPT_GRID_STEPS) {
      const points = grids.get(step) ?? [];
      let g = next.get(step) ?? part.since;
      for (; g < before; g += step) points.push({ ...last, t: g });
      next.set(step, g);
    }
  };
  // Each change's net is read here only against the threshold, whole points only on the kept grids: the walks are skipped where the gross cannot reach the threshold.
  for await (const points of priceSeries(inputs.a, inputs.b, inputs.rows, { since: part.since, until: part.until, size, threshold, initial: true, pricedGrids: KEPT_GRID_STEPS })) {
    for (const point of points) {
      folder.add(point);
      fill(point.t);
      last = point;
    }
  }
  fill(part.until + 1);
  return { stretch: folder.stretch(), grids };
}

/** One replay of a closed day (until the next day's first instant). */
export function foldDay(inputs: DayInputs, day: number, size: number, threshold: number): Promise<FoldedDay> {
  return foldStretch(inputs, { since: day, until: day + DAY_MS - 1, end: day + DAY_MS }, size, threshold);
}

/** Rows read before, handed to a replay again as the engine's stream handed them. */
function keptRows(batches: readonly ReplayBatch[]): SeriesRows {
  return {
    async *[Symbol.asyncIterator]() {
      yield* batches;
    },
  };
}

/**
 * A batch kept with room for its rows only: the engine's stream fills batches of 8,192 rows
 * (lib/history/ticks.ts), and a part's last batch, most of a quiet day's only one, would keep its
 * whole columns (43 bytes × 8,192, 352 KB) for however few rows it holds, outside MAX_KEPT_ROWS.
 */
function trimmed(batch: ReplayBatch): ReplayBatch {
  if (batch.length === batch.capacity) return batch;
  return ReplayBatch.of(Array.from({ length: batch.length }, (_, i) => batch.row(i)));
}

/** `rows` passed on as they are read, each batch also handed to `seen`. */
async function* recording(rows: SeriesRows, seen: (batch: ReplayBatch) => void): AsyncGenerator<ReplayBatch> {
  for await (const batch of rows) {
    seen(batch);
    yield batch;
  }
}

/**
 * A fold that starts when first asked for (`start`), by whichever window's fold reaches it first;
 * `day` settles with it.
 */
class FoldTask {
  readonly day: Promise<FoldedDay>;
  #begin: () => void = () => undefined;
  #started = false;

  constructor(fold: () => Promise<FoldedDay>) {
    this.day = new Promise<FoldedDay>((resolve, reject) => {
      this.#begin = () => {
        Promise.resolve().then(fold).then(resolve, reject);
      };
    });
  }

  /** Whether a fold has started it. */
  get started(): boolean {
    return this.#started;
  }

  start(): Promise<FoldedDay> {
    if (!this.#started) {
      this.#started = true;
      this.#begin();
    }
    return this.day;
  }
}

/**
 * Rows of a market in a venue's table in each [from, to) (every asset and event type: any late row
 * counts), in one read of the market's rows from the first `from` to the last `to`.
 */
async function marketRowCounts(ticks: TickReader, source: TickSource, ranges: ReadonlyArray<readonly [number, number]>): Promise<number[]> {
  const table = venueOfTable(source.table)?.table;
  if (table === undefined) throw new AppError("not_found", "Not a recorded venue's table.", { resource: "order book" });
  if (ranges.length === 0) return [];
  const binds: Record<string, Bind> = {
    market: bind.string(source.conditionId),
    from: bind.time(Math.min(...ranges.map(([from]) => from))),
    to: bind.time(Math.max(...ranges.map(([, to]) => to))),
  };
  const columns = ranges.map(([from, to], i) => {
    binds[`from${i}`] = bind.time(from);
    binds[`to${i}`] = bind.time(to);
    return `countIf(timestamp >= {from${i}:DateTime64(3)} AND timestamp < {to${i}:DateTime64(3)})`;
  });
  const rows = await tickRows<Array<number | string>>(
    ticks,
    `SELECT ${columns.join(", ")} FROM ${table} WHERE market = {market:String} AND timestamp >= {from:DateTime64(3)} AND timestamp < {to:DateTime64(3)}`,
    binds,
  );
  return ranges.map((_, i) => Number(rows[0]?.[i] ?? 0));
}

/** What a part's answer and its merged rows were computed from (see the module's comment). */
interface Fingerprints {
  /** Everything the part's answer depends on: a kept day's fold is used while it holds. */
  fold: string;
  /** What its merged rows depend on (each side's replay start, the part's end, the rows in the tables): kept rows are used while it holds. */
  rows: string;
}

const digest = (state: unknown) => createHash("sha256").update(JSON.stringify(state)).digest("base64url");

/** Each part's fingerprints, as one string each (see the module's comment); two count queries for all the parts. */
async function fingerprintsOf(ticks: TickReader, pair: ResolvedPair, inputs: readonly DayInputs[], parts: readonly WindowPart[]): Promise<Fingerprints[]> {
  const sides = [pair.a, pair.b];
  // Both sides at once: the engine's read pool has two connections.
  const counts = await Promise.all(sides.map((side, i) => marketRowCounts(ticks, side.source, parts.map((part, p) => [Math.min(part.since, inputs[p]?.starts[i] ?? part.since), part.until + 1] as const))));
  return parts.map((part, p) => {
    const partInputs = inputs[p];
    if (partInputs === undefined) throw new Error("a part of the window without its inputs");
    const rows = sides.map((_, i) => ({ outcome: (i === 0 ? partInputs.a : partInputs.b).outcomeId, start: partInputs.starts[i] ?? null, rows: counts[i]?.[p] }));
    const state = sides.map((side, i) => {
      const input = i === 0 ? partInputs.a : partInputs.b;
      return {
        outcome: input.outcomeId,
        start: partInputs.starts[i] ?? null,
        spans: input.spans,
        closedAt: input.closedAt ?? null,
        fee: { venue: side.venue, market: side.venueMarketId, category: side.category, versions: side.marketFees ?? null },
        rows: counts[i]?.[p],
      };
    });
    return { fold: digest(state), rows: digest({ until: part.until, sides: rows }) };
  });
}

/**
 * Each part folded, at most two at a time, taken from both ends of the list (the oldest and the
 * newest missing first: with one stream from each end, the two folds run side by side on the
 * engine's read pool as the page's two calls did before they shared one fold of the window). A
 * part another fold has started is not waited for until every part this fold can start is done.
 */
async function foldBothEnds(tasks: readonly FoldTask[], workers: 1 | 2 = 2): Promise<FoldedDay[]> {
  let front = 0;
  let back = tasks.length - 1;
  const worker = async (fromFront: boolean) => {
    while (front <= back) {
      const task = tasks[fromFront ? front++ : back--];
      if (task === undefined || task.started) continue;
      await task.start();
    }
  };
  await Promise.all(workers === 1 ? [worker(true)] : [worker(true), worker(false)]);
  return Promise.all(tasks.map((task) => task.day));
}

/** The parts of a window folded without a cache: each replayed. */
export function foldParts(parts: readonly WindowPart[], inputs: readonly DayInputs[], size: number, threshold: number): Promise<FoldedDay[]> {
  return foldBothEnds(
    parts.map((part, i) => {
      const partInputs = inputs[i];
      if (partInputs === undefined) throw new Error("a part of the window without its inputs");
      return new FoldTask(() => foldStretch(partInputs, part, size, threshold));
    }),
  );
}

/** `key` set to `value` as the most recently used entry of `map` (last), the least recently used dropped past `max`. */
function setNewest<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) {
    const oldest = map.keys().next();
    if (oldest.done === true) break;
    map.delete(oldest.value);
  }
}

interface Kept {
  fingerprint: string;
  task: FoldTask;
}

interface KeptRows {
  fingerprint: string;
  batches: readonly ReplayBatch[];
  count: number;
  /** A closed day's rows (else a partial day's: see MAX_KEPT_ROWS). */
  day: boolean;
}

/**
 * The process's closed days, keyed by the pair's two outcomes, size and threshold and the day.
 * A request that asks for a window another request is folding (the pair page asks /spreads and
 * /episodes of one window at once) takes that fold: one lookup of the window's inputs and one
 * replay of each of its parts answer both. A request that finds a day being folded by another
 * window's fold waits for that fold.
 */
export class SpreadDayCache {
  readonly #days = new Map<string, Kept>();
  readonly #rows = new Map<string, KeptRows>();
  readonly #windows = new Map<string, Promise<FoldedDay[]>>();
  /** When each pair's days were last asked ahead on its page's opening (`askAhead`), oldest first. */
  readonly #askedAhead = new Map<string, number>();
  readonly #max: number;
  readonly #maxRows: number;
  #keptRows = 0;
  #partialRows = 0;
  #folded = 0;
  #replayed = 0;
  #read = 0;
  #partialRead = 0;

  constructor(max = MAX_DAYS, maxRows = MAX_KEPT_ROWS) {
    this.#max = max;
    this.#maxRows = maxRows;
  }

  /**
   * The window's parts folded: closed days kept while their fingerprints hold (else folded now and
   * kept), the other parts replayed; `inputsOf` looks up each part's inputs (service.ts). A second
   * call for the same window while the first is folding it gets the first's answer.
   */
  window(
    ticks: TickReader,
    pair: ResolvedPair,
    parts: readonly WindowPart[],
    size: number,
    threshold: number,
    inputsOf: (parts: readonly WindowPart[]) => Promise<DayInputs[]>,
    workers: 1 | 2 = 2,
  ): Promise<FoldedDay[]> {
    const key = JSON.stringify([pair.a.source.table, pair.a.outcomeId, pair.b.source.table, pair.b.outcomeId, size, threshold, parts]);
    const running = this.#windows.get(key);
    if (running !== undefined) return running;
    const folding = this.#foldWindow(ticks, pair, parts, size, threshold, inputsOf, workers);
    this.#windows.set(key, folding);
    const done = () => {
      if (this.#windows.get(key) === folding) this.#windows.delete(key);
    };
    folding.then(done, done);
    return folding;
  }

  async #foldWindow(
    ticks: TickReader,
    pair: ResolvedPair,
    parts: readonly WindowPart[],
    size: number,
    threshold: number,
    inputsOf: (parts: readonly WindowPart[]) => Promise<DayInputs[]>,
    workers: 1 | 2,
  ): Promise<FoldedDay[]> {
    const inputs = await inputsOf(parts);
    const fingerprints = await fingerprintsOf(ticks, pair, inputs, parts);
    // Every part's task first (a kept day's, one another fold registered, or a new one), then folded.
    const tasks = parts.map((part, i) => {
      const partInputs = inputs[i] as DayInputs;
      const fingerprint = fingerprints[i] ?? { fold: "", rows: "" };
      if (!part.day) {
        // A partial day's fold is not kept (its window's ends move with "now"), its rows briefly are: the same window at another size replays them from memory.
        return new FoldTask(() => {
          this.#replayed += 1;
          return this.#foldPart(pair, partInputs, part, fingerprint.rows, size, threshold);
        });
      }
      return this.#kept(pair, size, threshold, part.since, fingerprint.fold) ?? this.#keep(pair, size, threshold, part.since, fingerprint.fold, () => this.#foldPart(pair, partInputs, part, fingerprint.rows, size, threshold));
    });
    return foldBothEnds(tasks, workers);
  }

  /** A part folded: from its kept rows when their fingerprint holds (another size read them), else from the engine, its rows kept. */
  async #foldPart(pair: ResolvedPair, inputs: DayInputs, part: WindowPart, fingerprint: string, size: number, threshold: number): Promise<FoldedDay> {
    const key = this.#rowsKey(pair, part);
    const kept = this.#rows.get(key);
    if (kept !== undefined && kept.fingerprint === fingerprint) {
      this.#rows.delete(key);
      this.#rows.set(key, kept);
      return foldStretch({ ...inputs, rows: keptRows(kept.batches) }, part, size, threshold);
    }
    if (part.day) this.#read += 1;
    else this.#partialRead += 1;
    const batches: ReplayBatch[] = [];
    let count = 0;
    const limit = this.#maxRows / 4;
    const rows = recording(inputs.rows, (batch) => {
      count += batch.length;
      if (count <= limit) batches.push(batch);
    });
    const folded = await foldStretch({ ...inputs, rows }, part, size, threshold);
    if (count <= limit) this.#keepRows(key, { fingerprint, batches: batches.filter((batch) => batch.length > 0).map(trimmed), count, day: part.day });
    return folded;
  }

  #rowsKey(pair: ResolvedPair, part: WindowPart): string {
    return JSON.stringify([pair.a.source.table, pair.a.outcomeId, pair.b.source.table, pair.b.outcomeId, part.since, part.until]);
  }

  #keepRows(key: string, rows: KeptRows): void {
    this.#dropRows(key);
    this.#rows.set(key, rows);
    this.#keptRows += rows.count;
    if (!rows.day) this.#partialRows += rows.count;
    // Partial days' rows past their quarter first, then the least recently used of any.
    for (const [oldest, entry] of this.#rows) {
      if (this.#partialRows <= this.#maxRows / 4) break;
      if (!entry.day) this.#dropRows(oldest);
    }
    while (this.#keptRows > this.#maxRows) {
      const oldest = this.#rows.keys().next().value;
      if (oldest === undefined) break;
      this.#dropRows(oldest);
    }
  }

  #dropRows(key: string): void {
    const entry = this.#rows.get(key);
    if (entry === undefined) return;
    this.#rows.delete(key);
    this.#keptRows -= entry.count;
    if (!entry.day) this.#partialRows -= entry.count;
  }

  #key(pair: ResolvedPair, size: number, threshold: number, day: number): string {
    return JSON.stringify([pair.a.source.table, pair.a.outcomeId, pair.b.source.table, pair.b.outcomeId, size, threshold, day]);
  }

  /** The kept fold of a day while its fingerprint holds (most recently used last); it may still be folding, or not started yet. */
  #kept(pair: ResolvedPair, size: number, threshold: number, day: number, fingerprint: string): FoldTask | undefined {
    const key = this.#key(pair, size, threshold, day);
    const kept = this.#days.get(key);
    if (kept === undefined || kept.fingerprint !== fingerprint) return undefined;
    this.#days.delete(key);
    this.#days.set(key, kept);
    return kept.task;
  }

  #keep(pair: ResolvedPair, size: number, threshold: number, day: number, fingerprint: string, fold: () => Promise<FoldedDay>): FoldTask {
    const key = this.#key(pair, size, threshold, day);
    const task = new FoldTask(() => {
      this.#folded += 1;
      return fold();
    });
    const entry = { fingerprint, task };
    setNewest(this.#days, key, entry, this.#max);
    task.day.catch(() => {
      if (this.#days.get(key) === entry) this.#days.delete(key);
    });
    return task;
  }

  /**
   * Whether a pair's days should be folded ahead now that its page opened: not when they were
   * asked within CLOSED_AFTER_MS (no day closed since; a page's own window still checks every day
   * it uses). Marks the pair asked. At most MAX_DAYS pairs remembered.
   */
  askAhead(pair: string, now: number): boolean {
    const asked = this.#askedAhead.get(pair);
    if (asked !== undefined && now - asked < CLOSED_AFTER_MS) return false;
    setNewest(this.#askedAhead, pair, now, this.#max);
    return true;
  }

  clear(): void {
    this.#askedAhead.clear();
    this.#days.clear();
    this.#rows.clear();
    this.#keptRows = 0;
    this.#partialRows = 0;
  }

  /** Days kept now. */
  get size(): number {
    return this.#days.size;
  }

  /** Days folded since the cache was made (a day kept and used again is not folded again). */
  get folded(): number {
    return this.#folded;
  }

  /** Parts other than closed days (a window's partial days) replayed since the cache was made. */
  get replayed(): number {
    return this.#replayed;
  }

  /** Closed days whose rows were read from the engine to fold them (the others were replayed from kept rows). */
  get read(): number {
    return this.#read;
  }

  /** Partial days (a window's head and tail) whose rows were read from the engine to fold them (the others were replayed from kept rows). */
  get partialRead(): number {
    return this.#partialRead;
  }

  /** Merged rows kept now (closed days' and partial days'). */
  get rowsKept(): number {
    return this.#keptRows;
  }

  /** Rows the kept batches have room for (each kept trimmed to its rows: the same as `rowsKept`). */
  get rowRoomKept(): number {
    let room = 0;
    for (const entry of this.#rows.values()) for (const batch of entry.batches) room += batch.capacity;
    return room;
  }

  /** Merged rows of partial days kept now (at most a quarter of the limit). */
  get partialRowsKept(): number {
    return this.#partialRows;
  }
}

const globalStore = processGlobals<{ __brierSpreadDays?: SpreadDayCache }>();

/**
 * The process-wide cache the pair routes and the fold ahead (./days-ahead.ts, started from
 * instrumentation) use: one for the process however many copies of this module it loads.
 */
export const spreadDays: SpreadDayCache = (globalStore.__brierSpreadDays ??= new SpreadDayCache());
