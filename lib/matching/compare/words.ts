/**
 * Words comparator: the content words of each side's question that the other's text lacks, and
 * those it states in other words (WordNet synonyms and derived forms).
 */
import type { Features } from "../extract";
import { genericWords, stopwords } from "../lexicon";
import { canonicalTokens } from "../text";
import { baseForm, lemmasOf, paraphraseIn } from "../wordnet";
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

/** A word both questions state, beside which each states a word the other leaves unsaid. */
export interface ObjectsDiffer {
  /** The shared word (the act: "banned"). */
  anchor: string;
  a: string;
  b: string;
}

/** A word that names a thing: WordNet knows it as no verb and no adjective (an act or a quality is worded many ways: "enter"/"visit", "largest"/"highest"). */
const namesAThing = (w: string) => lemmasOf(w).every((l) => l.part !== "verb" && l.part !== "adj");

/**
 * What the act is about differs: both questions state one content word (the act, "banned"), and
 * the word right beside it on the same side is, in each, a content word the other market leaves
 * unsaid (of `unsaid`) that names a thing: "X banned" and "Y banned" ask about two things, not one
 * question worded twice. Names are not read here (a short form of a given name against the full one
 * is weighed by the decision). Null when no shared word has that on both sides.
 */
export function objectsDiffer(a: Features, b: Features, unsaid: { a: readonly string[]; b: readonly string[] }): ObjectsDiffer | null {
  const unsaidA = new Set(unsaid.a.filter(namesAThing));
  const unsaidB = new Set(unsaid.b.filter(namesAThing));
  if (unsaidA.size === 0 || unsaidB.size === 0) return null;
  const tokensA = canonicalTokens(a.question);
  const tokensB = canonicalTokens(b.question);
  const content = (w: string | undefined): w is string => w !== undefined && !stopwords.has(w) && !genericWords.has(w) && !/^[0-9]/.test(w);
  for (let i = 0; i < tokensA.length; i++) {
    const anchor = tokensA[i];
    if (!content(anchor) || unsaidA.has(anchor)) continue;
    for (let j = 0; j < tokensB.length; j++) {
      if (tokensB[j] !== anchor) continue;
      for (const step of [-1, 1]) {
        const x = tokensA[i + step];
        const y = tokensB[j + step];
        if (x !== undefined && y !== undefined && x !== y && unsaidA.has(x) && unsaidB.has(y)) return { anchor, a: x, b: y };
      }
    }
  }
  return null;
}
