/**
 * Words comparator: the content words of each side's question that the other's text lacks, and
 * those it states in other words (WordNet synonyms and derived forms).
 */
import type { Features } from "../extract";
import { genericWords } from "../lexicon";
import { baseForm, paraphraseIn } from "../wordnet";
import { unmatchedNames } from "./names";
import { entitiesOf } from "../aliases";
import { baseWords, entitiesLookup, sameStem, wordsLookup } from "./lookup";

/** Content words of A's own question that B's text has nowhere (a weaker sign than a name). */
export function unmatchedWords(a: Features, b: Features, excused: ReadonlySet<string> = new Set()): string[] {
  const { other, stems: otherList } = wordsLookup(b);
  // Names are compared by unmatchedNames, with what reconciles them (acronyms, given names).
  const named = new Set(a.names.flatMap((n) => n.words));
  // A word that is an alias of an entity B names (a team's nickname read as a word at the start of a sentence).
  const entities = entitiesLookup(b);
  return a.outcome.filter(
    (w) =>
      !genericWords.has(w) &&
      !named.has(w) &&
      !excused.has(w) &&
      !other.has(w) &&
      !(w.length >= 5 && otherList.some((x) => sameStem(x, w))) &&
      !(entities.size > 0 && entitiesOf(w).some((id) => entities.has(id))),
  );
}

export interface Paraphrase {
  word: string;
  as: string;
}

/**
 * A's unmatched words split into those B states in other words (a WordNet synonym or derived
 * form: "visit" / "travel to") and those it does not state at all.
 */
export function wordDifferences(a: Features, b: Features, excused: ReadonlySet<string> = new Set()): { missing: string[]; paraphrased: Paraphrase[] } {
  const missing: string[] = [];
  const paraphrased: Paraphrase[] = [];
  for (const w of unmatchedWords(a, b, excused)) {
    const as = paraphraseIn(w, baseWords(b));
    if (as === null) missing.push(w);
    else paraphrased.push({ word: w, as });
  }
  return { missing, paraphrased };
}

/** What each side states in names and words that the other leaves unsaid or says in other words. */
export interface WordingComparison {
  names: { a: string[]; b: string[] };
  words: { a: string[]; b: string[] };
  /** A's words B states in other words, then B's words A states in other words. */
  paraphrased: { a: Paraphrase[]; b: Paraphrase[] };
}

/**
 * The first reading of the wording, before any attribute was compared: every name and content
 * word either side states and the other lacks, nothing excused, no paraphrase looked for. (A pair
 * that differs in an attribute is answered from this reading.)
 */
export function plainWording(a: Features, b: Features): WordingComparison {
  return { names: { a: unmatchedNames(a, b), b: unmatchedNames(b, a) }, words: { a: unmatchedWords(a, b), b: unmatchedWords(b, a) }, paraphrased: { a: [], b: [] } };
}

/**
 * The full reading: `excused` words (an option both state alike, the typed concepts already
 * compared) are not names; `optionWords` are not wording either; a paraphrase accounts for the
 * words on both sides ("visit" = "travel to" leaves no "travel").
 */
export function compareWording(a: Features, b: Features, excused: ReadonlySet<string>, optionWords: Iterable<string>): WordingComparison {
  const names = { a: unmatchedNames(a, b, excused), b: unmatchedNames(b, a, excused) };
  const wordExcused = new Set([...excused, ...optionWords]);
  const wordsA = wordDifferences(a, b, wordExcused);
  const wordsB = wordDifferences(b, a, wordExcused);
  const accountedOnB = new Set(wordsA.paraphrased.flatMap((p) => p.as.split(" ").flatMap((w) => [w, baseForm(w)])));
  const accountedOnA = new Set(wordsB.paraphrased.flatMap((p) => p.as.split(" ").flatMap((w) => [w, baseForm(w)])));
  return {
    names,
    words: {
      a: wordsA.missing.filter((w) => !accountedOnA.has(w) && !accountedOnA.has(baseForm(w))),
      b: wordsB.missing.filter((w) => !accountedOnB.has(w) && !accountedOnB.has(baseForm(w))),
    },
    paraphrased: { a: wordsA.paraphrased, b: wordsB.paraphrased },
  };
}
