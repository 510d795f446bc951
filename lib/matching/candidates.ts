/**
 * Candidate generation: an inverted index from key (topic word, option word, deadline month,
 * unit) to the markets carrying it. A market's candidates are the markets of OTHER venues that
 * share its rarest keys, scored by the inverse document frequency of what they share; never all
 * pairs.
 */
import { Cooccurrence, type TravelsWith } from "./cooccurrence";

export interface IndexedMarket {
  id: string;
  venue: string;
  keys: string[];
}

export interface CandidateOptions {
  /** Candidates kept per market (default 30). */
  limit?: number;
  /** Postings read per market at most (default 2,000): very common keys are skipped. */
  budget?: number;
}

export class CandidateIndex implements TravelsWith {
  private readonly postings = new Map<string, number[]>();
  private readonly ids: string[] = [];
  private readonly venues: string[] = [];
  private readonly position = new Map<string, number>();
  /** Each market's keys, as the numbers `keyIds` gives them (scoring reads numbers, not strings). */
  private readonly keysAt: Int32Array[] = [];
  private readonly keyIds = new Map<string, number>();
  /** A nominating market's own keys' weights by key number while it is scored (0 elsewhere). */
  private weights = new Float64Array(0);
  /** Positions replaced by a newer version of their market (skipped when nominating). */
  private readonly dead = new Set<number>();

  constructor(markets: Iterable<IndexedMarket>) {
    for (const m of markets) this.add(m);
  }

  /**
   * Replaces markets' keys (new or changed markets of an incremental pass). The old position is
   * tombstoned rather than removed from long posting lists, so an update costs its own keys only.
   */
  upsert(markets: Iterable<IndexedMarket>): void {
    for (const m of markets) {
      const old = this.position.get(m.id);
      if (old !== undefined) this.dead.add(old);
      this.add(m);
    }
    this.idfCache.clear();
    this.cooccurrence.clear();
  }

  private add(m: IndexedMarket) {
    const at = this.ids.length;
    this.ids.push(m.id);
    this.venues.push(m.venue);
    this.position.set(m.id, at);
    const ids = new Int32Array(m.keys.length);
    for (const [i, key] of m.keys.entries()) {
      let id = this.keyIds.get(key);
      if (id === undefined) {
        id = this.keyIds.size;
        this.keyIds.set(key, id);
      }
      ids[i] = id;
    }
    this.keysAt.push(ids);
    for (const key of new Set(m.keys)) {
      const list = this.postings.get(key);
      if (list === undefined) this.postings.set(key, [at]);
      else list.push(at);
    }
  }

  get size(): number {
    return this.ids.length - this.dead.size;
  }

  /** Documents carrying `key`. */
  df(key: string): number {
    return this.postings.get(key)?.length ?? 0;
  }

  private readonly idfCache = new Map<string, number>();

  /** Names that travel together across the indexed catalog (cooccurrence.ts): read from these postings. */
  private readonly cooccurrence = new Cooccurrence({
    list: (word) => this.postings.get(word),
    venueAt: (at) => this.venues[at] ?? "",
    live: (at) => !this.dead.has(at),
  });

  /** How surely `word` comes with `given` on some venue of the catalog (`Cooccurrence.travelsWith`). */
  travelsWith(given: string, word: string): number {
    return this.cooccurrence.travelsWith(given, word);
  }

  /** The same on one venue (`Cooccurrence.travelsOn`). */
  travelsOn(venue: string, given: string, word: string): number {
    return this.cooccurrence.travelsOn(venue, given, word);
  }

  /** How many live markets of `venue` carry `word` (`Cooccurrence.carried`). */
  carried(venue: string, word: string): number {
    return this.cooccurrence.carried(venue, word);
  }

  /** Two names never carried by one market, each by several (`Cooccurrence.apart`). */
  apart(x: string, y: string): boolean {
    return this.cooccurrence.apart(x, y);
  }

  idf(key: string): number {
    let v = this.idfCache.get(key);
    if (v === undefined) {
      v = Math.log(1 + this.size / (this.df(key) + 1));
      this.idfCache.set(key, v);
    }
    return v;
  }

  /**
   * Other-venue markets sharing the most informative keys with `market`, best first. The rarest
   * keys nominate candidates (up to `budget` postings); each candidate is then scored on every
   * key it shares, common ones included, so "same city" still ranks within "same day".
   */
  candidates(market: IndexedMarket, options: CandidateOptions = {}): string[] {
    const limit = options.limit ?? 30;
    let budget = options.budget ?? 2_000;
    const own = new Set(market.keys);
    const keys = [...own].filter((k) => this.df(k) > 0).sort((a, b) => this.df(a) - this.df(b));
    const nominated = new Set<number>();
    for (const [i, key] of keys.entries()) {
      const list = this.postings.get(key);
      if (list === undefined) continue;
      // The rarest key always nominates; later ones only within the budget.
      if (i > 0 && list.length > budget) break;
      const read = i === 0 ? list.slice(0, Math.max(budget, 1) * 5) : list;
      budget -= read.length;
      for (const at of read) if (this.venues[at] !== market.venue && !this.dead.has(at)) nominated.add(at);
    }
    if (limit <= 0) return [];
    // Each own key's weight looked up once, not once per nominee that shares it (by key number:
    // a key of no indexed market cannot be shared, and every other key weighs 0 here).
    if (this.weights.length < this.keyIds.size) this.weights = new Float64Array(Math.max(this.keyIds.size, 2 * this.weights.length));
    const weights = this.weights;
    const ownIds: number[] = [];
    for (const key of own) {
      const id = this.keyIds.get(key);
      if (id === undefined) continue;
      ownIds.push(id);
      weights[id] = this.idf(key);
    }
    // The best `limit` by score, then id (a total order: ids are unique), kept in order as they
    // come rather than sorting every nominee to keep a dozen.
    const ids = this.ids;
    const before = (at: number, score: number, y: [number, number]) => score > y[1] || (score === y[1] && (ids[at] ?? "") < (ids[y[0]] ?? ""));
    const best: Array<[number, number]> = [];
    for (const at of nominated) {
      // The same sum, in the same order, as adding the weight of each shared key (a key not shared adds 0).
      let score = 0;
      const keys = this.keysAt[at] as Int32Array;
      for (let k = 0; k < keys.length; k += 1) score += weights[keys[k] as number] as number;
      if (best.length === limit && !before(at, score, best[best.length - 1] as [number, number])) continue;
      let i = best.length;
      while (i > 0 && before(at, score, best[i - 1] as [number, number])) i -= 1;
      best.splice(i, 0, [at, score]);
      if (best.length > limit) best.pop();
    }
    for (const id of ownIds) weights[id] = 0;
    return best.map(([at]) => ids[at] ?? "").filter((id) => id !== "");
  }
}
