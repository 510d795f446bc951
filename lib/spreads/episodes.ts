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

const dayKey = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export class EpisodeFolder {
  readonly #threshold: number;
  readonly #until: number;
  readonly #open = new Map<Direction, Open>();
  readonly #days = new Map<string, EpisodeDay>();
  readonly episodes: EpisodePublic[] = [];
  #previous: SpreadPoint | undefined;

  constructor(since: number, until: number, threshold: number) {
    this.#threshold = threshold;
    this.#until = until;
    for (let day = Math.floor(since / DAY_MS) * DAY_MS; day <= until; day += DAY_MS) {
      this.#days.set(dayKey(day), { day: dayKey(day), knownMs: 0, knownAMs: 0, knownBMs: 0, episodes: 0, executableMs: 0, longestMs: 0, peak: null, sizeAtPeak: null });
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
      const end = Math.min(to, (Math.floor(start / DAY_MS) + 1) * DAY_MS);
      const day = this.#days.get(dayKey(start));
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
    const episode: EpisodePublic = { direction, start: open.start, end, durationMs: end - open.start, endedBy, peak: open.peak, peakAt: open.peakAt, grossAtPeak: open.grossAtPeak, sizeAtPeak: open.sizeAtPeak };
    this.episodes.push(episode);
    const day = this.#days.get(dayKey(open.start));
    if (day === undefined) return;
    day.episodes += 1;
    day.longestMs = Math.max(day.longestMs, episode.durationMs);
    if (day.peak === null || episode.peak > day.peak) {
      day.peak = episode.peak;
      day.sizeAtPeak = episode.sizeAtPeak;
    }
  }

  /** Takes the next point of the series (times strictly increasing). */
  add(point: SpreadPoint): void {
    if (this.#previous !== undefined) this.#account(this.#previous, this.#previous.t, point.t);
    this.#previous = point;
    for (const direction of directions) {
      if (!this.#above(point, direction)) {
        this.#close(direction, point.t, point.known ? "below_threshold" : endedByUnknown(point));
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

  /** Closes what is open at the window's end; the episodes oldest first and the days. */
  finish(): { episodes: EpisodePublic[]; days: EpisodeDay[] } {
    if (this.#previous !== undefined) this.#account(this.#previous, this.#previous.t, this.#until);
    for (const direction of directions) this.#close(direction, this.#until, "window_end");
    this.episodes.sort((x, y) => x.start - y.start || (x.direction < y.direction ? -1 : 1));
    return { episodes: this.episodes, days: [...this.#days.values()] };
  }
}
