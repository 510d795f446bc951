/**
 * Confidence as a probability: P(the stated relation is right | the engine's evidence), from a
 * logistic regression fitted on labelled pairs (scripts/matching/fit.ts, `npm run matching:fit`).
 * The fitted weights are data (data/calibration.json, with how and on what they were produced);
 * nothing here is a hand-set score.
 */
import calibration from "./data/calibration.json";
import type { Relation } from "./relations";

/** What the engine saw when it compared two markets (all numbers; flags are 0/1). */
export interface Evidence {
  /** Weighted topic overlap, 0..1. */
  similarity: number;
  /** Name words one side states and the other does not (both directions). */
  unmatchedNames: number;
  /** Content words of one outcome's question the other's text lacks (both directions). */
  unmatchedWords: number;
  /** The option is written shorter on one side ("Springfield A"). */
  abbreviated: number;
  /** The option is a label on one side and inside the question on the other. */
  optionOneSide: number;
  /** Thresholds equal only within one reporting step. */
  tick: number;
  /** An instant's hour is stated on one side only, or an instant is matched to its month. */
  looseTime: number;
  /** A date on one side only. */
  dateOneSide: number;
  /** A date the question states on one side only, found in the other's rules. */
  dateInferred: number;
  /** One side resolves on any of several criteria. */
  disjunctive: number;
  /** Both name resolution sources and none is shared. */
  sourcesDiffer: number;
  /** Another place, office or measure. */
  contextDiff: number;
  /** Another time or season. */
  timeDiff: number;
  /** Words one side states that the other states in other words (WordNet synonyms, derived forms). */
  paraphrased: number;
  /** An ordinal position stated on one side only. */
  ordinalOneSide: number;
  /** A date one question leaves out, filled from its market's own resolution date. */
  dateFromResolution: number;
  /** Rule terms both sides state differently. */
  ruleDifferences: number;
  /** A city, state or office stated on one side only. */
  contextOneSide: number;
}

export function emptyEvidence(similarity: number): Evidence {
  return { similarity, unmatchedNames: 0, unmatchedWords: 0, abbreviated: 0, optionOneSide: 0, tick: 0, looseTime: 0, dateOneSide: 0, dateInferred: 0, disjunctive: 0, sourcesDiffer: 0, contextDiff: 0, timeDiff: 0, paraphrased: 0, ordinalOneSide: 0, dateFromResolution: 0, ruleDifferences: 0, contextOneSide: 0 };
}

export const relationGroups = ["identity", "nesting", "related"] as const;
export type RelationGroup = (typeof relationGroups)[number];

export function groupOf(relation: Relation): RelationGroup {
  return relation === "identity" ? "identity" : relation === "subset" || relation === "superset" ? "nesting" : "related";
}

/** The model's inputs, in the order of the stored weights. */
export const featureNames = [
  "identity",
  "nesting",
  "related",
  "similarity",
  "unmatchedNames",
  "unmatchedWords",
  "abbreviated",
  "optionOneSide",
  "tick",
  "looseTime",
  "dateOneSide",
  "dateInferred",
  "disjunctive",
  "sourcesDiffer",
  "contextDiff",
  "timeDiff",
  "paraphrased",
  "dateFromResolution",
  "ruleDifferences",
] as const;

export function featureVector(relation: Relation, ev: Evidence): number[] {
  const group = groupOf(relation);
  return featureNames.map((name) => {
    if (name === "identity" || name === "nesting" || name === "related") return group === name ? 1 : 0;
    // Counts saturate: the third unmatched word says little the second did not.
    if (name === "unmatchedNames" || name === "unmatchedWords" || name === "paraphrased" || name === "ruleDifferences") return Math.min(3, ev[name]);
    return ev[name];
  });
}

interface Calibration {
  features: string[];
  weights: number[];
}

const model = calibration as Calibration;
if (model.features.join(",") !== featureNames.join(",")) throw new Error("lib/matching/data/calibration.json was fitted on other features: run npm run matching:fit");

/** A fitted logistic model's probability for inputs `x` (three decimals). */
export function logistic(weights: readonly number[], x: readonly number[]): number {
  let z = 0;
  for (const [i, w] of weights.entries()) z += w * (x[i] ?? 0);
  return Math.round(1000 / (1 + Math.exp(-z))) / 1000;
}

/** The fitted probability that `relation` is right, given the evidence (three decimals). */
export function calibrated(relation: Relation, ev: Evidence): number {
  return logistic(model.weights, featureVector(relation, ev));
}
