/**
 * Topic comparator: how much of the smaller topic the other shares, weighted by rarity.
 */
import type { Features } from "../extract";
import { genericWords } from "../lexicon";

export type Idf = (token: string) => number;

/** Lowest topic similarity at which two markets are compared at all. */
export const MIN_TOPIC_SIMILARITY = 0.3;

/** Weighted overlap of the two topics (0..1): how much of the smaller topic the other shares. */
export function topicSimilarity(a: Features, b: Features, idf: Idf): number {
  const setB = new Set(b.topic);
  let shared = 0;
  let sumA = 0;
  let sumB = 0;
  const w = (t: string) => idf(t) * (genericWords.has(t) ? 0.3 : 1);
  for (const t of a.topic) {
    sumA += w(t);
    if (setB.has(t)) shared += w(t);
  }
  for (const t of b.topic) sumB += w(t);
  const denominator = Math.min(sumA, sumB);
  return denominator <= 0 ? 0 : Math.min(1, shared / denominator);
}
