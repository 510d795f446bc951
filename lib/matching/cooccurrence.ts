/**
 * Names that travel together: learned from the catalog being matched, never from a list of names
 * or from labels. A venue writes some names every time it writes another (an awards ceremony with
 * each of its awards, an organiser with its competition), and the other venue may leave the first
 * out by its own convention. Before a name said on one side only counts as a difference
 * (`namesImplied`, compare/names.ts), it is looked for here.
 *
 * What it reads: the candidate index's postings (each market's topic keys: the words of its
 * question, Yes label and event title; its option's words), so it is learned again whenever the
 * index changes (every pass; an incremental pass's upsert clears what was read). It keeps no
 * copy of the catalog: an answer is one merge of two posting lists, and the answers read are
 * cached up to `CACHE_LIMIT` entries (then the cache starts over), so its memory is bounded
 * whatever the catalog's size. Deterministic: the same catalog gives the same answers.
 */

/** Markets of one venue that must carry a word before what travels with it there is read. */
export const TRAVEL_SUPPORT = 3;

/** Answers kept between merges; past it the cache starts over (a bound on memory, not a result). */
export const CACHE_LIMIT = 100_000;

/** What the co-occurrence reads of an index: posting lists in position order, and each position's venue. */
export interface Postings {
  /** Positions of the markets carrying `word`, ascending. */
  list(word: string): readonly number[] | undefined;
  venueAt(at: number): string;
  /** False for a position replaced by a newer version of its market. */
  live(at: number): boolean;
}

/** The two questions the names comparator asks of the catalog. */
export interface TravelsWith {
  /**
   * How surely `word` comes with `given`: on each venue carrying `given` on at least
   * `TRAVEL_SUPPORT` markets, the share of those that carry `word` too; the highest of the venues
   * (0 when no venue has the support). Per venue, because the point is one venue's convention:
   * pooled over both, a name one venue always writes and the other never does would look rare.
   */
  travelsWith(given: string, word: string): number;
  /** The same share on one venue only (0 when fewer than `TRAVEL_SUPPORT` of its markets carry `given`). */
  travelsOn(venue: string, given: string, word: string): number;
  /**
   * Two names that are each other's alternative: each carried by at least `TRAVEL_SUPPORT`
   * markets, and never both by one market (another competition, another stage of one contest).
   */
  apart(x: string, y: string): boolean;
  /** How many live markets of `venue` carry `word`. */
  carried(venue: string, word: string): number;
}

export class Cooccurrence implements TravelsWith {
  private readonly cache = new Map<string, number>();

  constructor(private readonly postings: Postings) {}

  /** Forgets what was read (the catalog changed). */
  clear(): void {
    this.cache.clear();
  }

  private remember(key: string, value: number): number {
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(key, value);
    return value;
  }

  /** Per venue: the share of its markets carrying `given` that carry `word` (venues below the support left out). */
  private shares(given: string, word: string): Map<string, number> {
    const out = new Map<string, number>();
    const g = this.postings.list(given) ?? [];
    if (g.length < TRAVEL_SUPPORT) return out;
    const w = this.postings.list(word) ?? [];
    // Per venue: markets carrying `given`, and those carrying both (one merge of the two lists).
    const carrying = new Map<string, number>();
    const both = new Map<string, number>();
    let j = 0;
    for (const at of g) {
      if (!this.postings.live(at)) continue;
      const venue = this.postings.venueAt(at);
      carrying.set(venue, (carrying.get(venue) ?? 0) + 1);
      while (j < w.length && (w[j] ?? 0) < at) j += 1;
      if (j < w.length && w[j] === at) both.set(venue, (both.get(venue) ?? 0) + 1);
    }
    for (const [venue, n] of carrying) if (n >= TRAVEL_SUPPORT) out.set(venue, (both.get(venue) ?? 0) / n);
    return out;
  }

  travelsWith(given: string, word: string): number {
    const key = `t\u0000${given}\u0000${word}`;
    const known = this.cache.get(key);
    if (known !== undefined) return known;
    let best = 0;
    for (const share of this.shares(given, word).values()) best = Math.max(best, share);
    return this.remember(key, best);
  }

  travelsOn(venue: string, given: string, word: string): number {
    const key = `v\u0000${venue}\u0000${given}\u0000${word}`;
    const known = this.cache.get(key);
    if (known !== undefined) return known;
    return this.remember(key, this.shares(given, word).get(venue) ?? 0);
  }

  carried(venue: string, word: string): number {
    const key = `c\u0000${venue}\u0000${word}`;
    const known = this.cache.get(key);
    if (known !== undefined) return known;
    let n = 0;
    for (const at of this.postings.list(word) ?? []) if (this.postings.live(at) && this.postings.venueAt(at) === venue) n += 1;
    return this.remember(key, n);
  }

  apart(x: string, y: string): boolean {
    const [first, second] = x < y ? [x, y] : [y, x];
    const key = `a\u0000${first}\u0000${second}`;
    const known = this.cache.get(key);
    if (known !== undefined) return known === 1;
    const live = (list: readonly number[]) => list.filter((at) => this.postings.live(at));
    const a = live(this.postings.list(first) ?? []);
    const b = live(this.postings.list(second) ?? []);
    let together = false;
    if (a.length >= TRAVEL_SUPPORT && b.length >= TRAVEL_SUPPORT) {
      let j = 0;
      for (const at of a) {
        while (j < b.length && (b[j] ?? 0) < at) j += 1;
        if (j < b.length && b[j] === at) {
          together = true;
          break;
        }
      }
    }
    return this.remember(key, a.length >= TRAVEL_SUPPORT && b.length >= TRAVEL_SUPPORT && !together ? 1 : 0) === 1;
  }
}
