import type { EpisodeDay, EpisodePublic, SpreadPoint } from "./shapes";
import { directions, type Direction } from "./spread-math";

/**
 * Episodes (docs/spreads.md, "Episodes"): each stretch in which one direction's net spread per
 * contract after fees stayed above a threshold, folded from the every-change series, and a
 * summary per UTC day. Pure, so the rules are tested on hand-made points.
 *
 * A point's state holds until the next point (the series has a point at every change of either
 * book and wherever a book becomes known or unknown), so durations are exact to the millisecond
 * of the tick tables' clock. An episode ends at the first point below the threshold, or where
 * either book becomes unknown (never carried across a gap), or where either market stopped
 * trading (`resolution`: the series is unknown from the close on, `market_closed`), or at the
 * window's end.
 */

const DAY_MS = 86_400_000;

interface Open {
  start: number;
  peak: number;
  peakAt: number;
  grossAtPeak: number;
  sizeAtPeak: number;
}

/** Why an unknown point ends an episode: a market of the pair stopped trading (it closed or resolved), or a book is not known. */
const endedByUnknown = (point: SpreadPoint): EpisodePublic["endedBy"] =>
  point.unknown?.a === "market_closed" || point.unknown?.b === "market_closed" ? "resolution" : "unknown";

/** How a point that is not above the threshold ends an episode open before it. */
const endedByOf = (point: SpreadPoint): EpisodePublic["endedBy"] => (point.known ? "below_threshold" : endedByUnknown(point));

const dayKey = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export class EpisodeFolder {
  readonly #threshold: number;
  readonly #until: number;
  readonly #open = new Map<Direction, Open>();
  /** Each UTC day of the window by its first instant (a number key: the day's ISO text is built once, not at every point). */
  readonly #days = new Map<number, EpisodeDay>();
  /** Episodes in the order they closed (by end, then direction). */
  readonly #closed: EpisodePublic[] = [];
  readonly #since: number;
  #opening: Opening | undefined;
  #previous: SpreadPoint | undefined;

  constructor(since: number, until: number, threshold: number) {
    this.#since = since;
    this.#threshold = threshold;
    this.#until = until;
    for (let day = Math.floor(since / DAY_MS) * DAY_MS; day <= until; day += DAY_MS) {
      this.#days.set(day, { day: dayKey(day), knownMs: 0, knownAMs: 0, knownBMs: 0, episodes: 0, executableMs: 0, longestMs: 0, peak: null, sizeAtPeak: null });
    }
  }

  #above(point: SpreadPoint, direction: Direction): boolean {
    const value = point.net?.[direction].perContract;
    return point.known && value !== null && value !== undefined && value > this.#threshold;
  }

  /** Adds [from, to) of the previous point's state to the days it covers. */
  #account(point: SpreadPoint, from: number, to: number): void {
    const executable = directions.some((direction) => this.#above(point, direction));
    for (let start = from; start < to; ) {
      const dayStart = Math.floor(start / DAY_MS) * DAY_MS;
      const end = Math.min(to, dayStart + DAY_MS);
      const day = this.#days.get(dayStart);
      if (day !== undefined) {
        if (point.known) day.knownMs += end - start;
        if (point.known || point.unknown?.a === null) day.knownAMs += end - start;
        if (point.known || point.unknown?.b === null) day.knownBMs += end - start;
        if (executable) day.executableMs += end - start;
      }
      start = end;
    }
  }

  #close(direction: Direction, end: number, endedBy: EpisodePublic["endedBy"]): void {
    const open = this.#open.get(direction);
    if (open === undefined) return;
    this.#open.delete(direction);
    this.#closed.push({ direction, start: open.start, end, durationMs: end - open.start, endedBy, peak: open.peak, peakAt: open.peakAt, grossAtPeak: open.grossAtPeak, sizeAtPeak: open.sizeAtPeak });
  }

  /** Takes the next point of the series (times strictly increasing). */
  add(point: SpreadPoint): void {
    if (this.#previous !== undefined) this.#account(this.#previous, this.#previous.t, point.t);
    this.#previous = point;
    this.#opening ??= { aToB: this.#above(point, "aToB") ? null : endedByOf(point), bToA: this.#above(point, "bToA") ? null : endedByOf(point) };
    for (const direction of directions) {
      if (!this.#above(point, direction)) {
        this.#close(direction, point.t, endedByOf(point));
        continue;
      }
      const value = point.net?.[direction].perContract ?? 0;
      const open = this.#open.get(direction);
      if (open === undefined || value > open.peak) {
        const peak = { peak: value, peakAt: point.t, grossAtPeak: point.gross?.[direction] ?? 0, sizeAtPeak: point.available?.[direction] ?? 0 };
        this.#open.set(direction, { start: open?.start ?? point.t, ...peak });
      }
    }
  }

  /** Closes what is open at the window's end: this stretch of the series folded (see FoldedStretch). */
  stretch(): FoldedStretch {
    if (this.#previous !== undefined) this.#account(this.#previous, this.#previous.t, this.#until);
    for (const direction of directions) this.#close(direction, this.#until, "window_end");
    return { since: this.#since, until: this.#until, opening: this.#opening ?? null, closed: this.#closed, days: [...this.#days.values()] };
  }

  /** Closes what is open at the window's end; the episodes oldest first and the days. */
  finish(): { episodes: EpisodePublic[]; days: EpisodeDay[] } {
    return joinStretches([this.stretch()], this.#since, this.#until);
  }
}

/** Whether the first point of a stretch is above the threshold in each direction (null), or why not: how an episode open before it ends there. */
type Opening = Record<Direction, EpisodePublic["endedBy"] | null>;

/**
 * One stretch [since, until) of a window's every-change series, folded: the episodes in the order
 * they closed (those still open at `until` closed there as `window_end`), each UTC day's known and
 * executable time, and how the stretch opened. Consecutive stretches join into the window's
 * answer exactly as one pass would have folded it (`joinStretches`): the pair service folds a
 * closed UTC day once and keeps it (./day-cache.ts).
 */
export interface FoldedStretch {
  since: number;
  until: number;
  /** null: the stretch had no point (never, for a series with its opening point). */
  opening: Opening | null;
  closed: EpisodePublic[];
  days: EpisodeDay[];
}

const directionIndex = (direction: Direction) => directions.indexOf(direction);

/**
 * The window's episodes and days from its consecutive stretches (each starting where the last
 * ended, each opened by the series' point at its start): an episode open at a seam (`window_end`
 * there) continues into the next stretch's episode that opens at the seam, or ends at the seam
 * for the reason the next stretch's opening point gives; the days' sums add up; each day's
 * episode count, longest and peak are counted from the joined episodes in the order they closed,
 * as one pass counts them.
 */
export function joinStretches(stretches: readonly FoldedStretch[], since: number, until: number): { episodes: EpisodePublic[]; days: EpisodeDay[] } {
  const days = new Map<string, EpisodeDay>();
  for (let day = Math.floor(since / DAY_MS) * DAY_MS; day <= until; day += DAY_MS) {
    days.set(dayKey(day), { day: dayKey(day), knownMs: 0, knownAMs: 0, knownBMs: 0, episodes: 0, executableMs: 0, longestMs: 0, peak: null, sizeAtPeak: null });
  }
  const joined: EpisodePublic[] = [];
  let pending = new Map<Direction, EpisodePublic>();
  for (const stretch of stretches) {
    for (const part of stretch.days) {
      const day = days.get(part.day);
      if (day === undefined) continue;
      day.knownMs += part.knownMs;
      day.knownAMs += part.knownAMs;
      day.knownBMs += part.knownBMs;
      day.executableMs += part.executableMs;
    }
    const carried = new Map<Direction, EpisodePublic>();
    for (const [direction, open] of pending) {
      const endedBy = stretch.opening?.[direction] ?? null;
      if (endedBy !== null || stretch.opening === null) joined.push({ ...open, endedBy: endedBy ?? "window_end" });
      else carried.set(direction, open);
    }
    const next = new Map<Direction, EpisodePublic>();
    for (const episode of stretch.closed) {
      const before = episode.start === stretch.since ? carried.get(episode.direction) : undefined;
      let whole = episode;
      if (before !== undefined) {
        carried.delete(episode.direction);
        // The earlier peak wins a tie, as one pass keeps the first of equal peaks.
        const peak = episode.peak > before.peak ? episode : before;
        whole = { ...episode, start: before.start, durationMs: episode.end - before.start, peak: peak.peak, peakAt: peak.peakAt, grossAtPeak: peak.grossAtPeak, sizeAtPeak: peak.sizeAtPeak };
      }
      if (whole.endedBy === "window_end" && whole.end === stretch.until && whole.end < until) next.set(whole.direction, whole);
      else joined.push(whole);
    }
    // An episode carried into a stretch always continues in it (its opening point is above).
    for (const open of carried.values()) joined.push(open);
    pending = next;
  }
  for (const open of pending.values()) joined.push(open);
  joined.sort((x, y) => x.end - y.end || directionIndex(x.direction) - directionIndex(y.direction));
  for (const episode of joined) {
    const day = days.get(dayKey(episode.start));
    if (day === undefined) continue;
    day.episodes += 1;
    day.longestMs = Math.max(day.longestMs, episode.durationMs);
    if (day.peak === null || episode.peak > day.peak) {
      day.peak = episode.peak;
      day.sizeAtPeak = episode.sizeAtPeak;
    }
  }
  const episodes = joined.sort((x, y) => x.start - y.start || (x.direction < y.direction ? -1 : 1));
  return { episodes, days: [...days.values()] };
}
