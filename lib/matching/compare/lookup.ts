/**
 * What one market's text holds, as sets the names and words comparators look words up in; built
 * once per market and pass (a market is compared with a dozen others).
 */
import type { Features } from "../extract";
import { entitiesIn } from "../aliases";
import { countryWords } from "../places";
import { baseForm } from "../wordnet";

let homeWords: Set<string> | null = null;
const homeCountryWords = () => (homeWords ??= countryWords("us"));

export interface Lookup {
  other: Set<string>;
  /** The longer words, for inflections. */
  stems: string[];
}

const namesCache = new WeakMap<Features, Lookup>();
const wordsCache = new WeakMap<Features, Lookup>();

function lookup(cache: WeakMap<Features, Lookup>, f: Features, words: () => Iterable<string>): Lookup {
  let l = cache.get(f);
  if (l === undefined) {
    const other = new Set<string>();
    // A hyphenated word also stands for its parts ("gpt-6" holds "gpt", "ocasio-cortez" "cortez").
    for (const w of words()) {
      other.add(w);
      if (w.includes("-")) for (const part of w.split("-")) if (part !== "") other.add(part);
    }
    l = { other, stems: [...other].filter((w) => w.length >= 5) };
    cache.set(f, l);
  }
  return l;
}

/** B's words where A's names are looked for (its question, label, event title, rules and its event's tags). Both venues are US exchanges: a question that names no
 * country is about the home country, so "the national savings rate" and "the savings rate" are
 * one measure. */
export const namesLookup = (b: Features) =>
  lookup(namesCache, b, () => [...b.words, ...b.ruleNames, ...(b.hierarchy ?? []), ...((b.concepts.country ?? []).length === 0 ? homeCountryWords() : [])]);

/** B's words and rule words, where A's content words are looked for (the home country's words when B names no country, as for names). */
export const wordsLookup = (b: Features) =>
  lookup(wordsCache, b, () => [...b.words, ...b.ruleWords, ...((b.concepts.country ?? []).length === 0 ? homeCountryWords() : [])]);

/** The entities B names unambiguously by any alias (its question, label, event title and rule sentence; aliases.ts). */
const entitiesCache = new WeakMap<Features, Set<string>>();
export function entitiesLookup(b: Features): Set<string> {
  let set = entitiesCache.get(b);
  if (set === undefined) {
    set = entitiesIn(b.words, { unambiguous: true });
    entitiesCache.set(b, set);
  }
  return set;
}

/** Length of the common prefix of two words. */
function commonPrefix(x: string, y: string): number {
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i += 1;
  return i;
}

/** The same word, or one inflection of it ("presidency" / "presidential", "zorbia" / "zorbian"). */
export function sameStem(x: string, y: string): boolean {
  if (x === y) return true;
  const shorter = Math.min(x.length, y.length);
  return shorter >= 5 && commonPrefix(x, y) >= Math.max(5, Math.ceil(0.7 * shorter));
}

/** B's words and rule words in their WordNet base forms ("raises" -> "raise"). */
const baseCache = new WeakMap<Features, Set<string>>();
export function baseWords(b: Features): Set<string> {
  let set = baseCache.get(b);
  if (set === undefined) {
    set = new Set<string>();
    for (const w of wordsLookup(b).other) {
      set.add(w);
      set.add(baseForm(w));
    }
    baseCache.set(b, set);
  }
  return set;
}
