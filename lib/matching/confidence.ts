/**
 * Confidence as a probability: P(the stated relation is right | the engine's evidence), from a
 * logistic regression fitted on labelled pairs (scripts/matching/fit.ts, `npm run matching:fit`).
 * The fitted weights are data (data/calibration.json, with how and on what they were produced);
 * nothing here is a hand-set score.
 */
import calibration from "./data/calibration.json";
import type { Relation } from "./relations";

/**
 * Every feature of the evidence, in one list: what it is, whether it is a count that saturates (the
 * third unsaid word says little the second did not), and which fitted model reads it (`decision`:
 * the identity decision, decision.ts; `confidence`: the other relations' confidence, below). A new
 * feature is an entry here and its line in the feature factory (compare/features.ts).
 */
export const evidenceFeatures = {
  /** Weighted topic overlap, 0..1. */
  similarity: { cap: null, decision: true, confidence: true },
  /** Name words one side states and the other does not (both directions). */
  unmatchedNames: { cap: 3, decision: true, confidence: true },
  /** Content words of one outcome's question the other's text lacks (both directions). */
  unmatchedWords: { cap: 5, decision: true, confidence: true },
  /** Words one side states that the other states in other words (WordNet synonyms, derived forms). */
  paraphrased: { cap: 3, decision: true, confidence: true },
  /** Names one side's question states that the other market's venue hierarchy (series, tags) or the catalog's co-occurring names supply. */
  namesFromHierarchy: { cap: 3, decision: true, confidence: false },
  /** The option is written shorter on one side ("Springfield A"). */
  abbreviated: { cap: null, decision: true, confidence: true },
  /** The option is a label on one side and inside the question on the other. */
  optionOneSide: { cap: null, decision: true, confidence: true },
  /** Thresholds equal only within one reporting step. */
  tick: { cap: null, decision: true, confidence: true },
  /** An instant's hour is stated on one side only, or an instant is matched to its month. */
  looseTime: { cap: null, decision: true, confidence: true },
  /** A date on one side only. */
  dateOneSide: { cap: null, decision: true, confidence: true },
  /** A date the question states on one side only, found in the other's rules. */
  dateInferred: { cap: null, decision: true, confidence: true },
  /** A date one question leaves out, filled from its market's own resolution date. */
  dateFromResolution: { cap: null, decision: true, confidence: true },
  /** An ordinal position stated on one side only. */
  ordinalOneSide: { cap: null, decision: true, confidence: false },
  /** A city, state or office stated on one side only. */
  contextOneSide: { cap: null, decision: true, confidence: false },
  /** Both name resolution sources and none is shared. */
  sourcesDiffer: { cap: null, decision: true, confidence: true },
  /** One side resolves on any of several criteria. */
  disjunctive: { cap: null, decision: true, confidence: true },
  /** Settlement terms both records state the same (settlement.ts). */
  settlementSame: { cap: 3, decision: true, confidence: false },
  /** Settlement terms one record states and the other's leaves unsaid. */
  settlementOneSide: { cap: 3, decision: true, confidence: false },
  /** Another place, office or measure. */
  contextDiff: { cap: null, decision: false, confidence: true },
  /** Another time or season. */
  timeDiff: { cap: null, decision: false, confidence: true },
  /** A measure read at a weather station whose station both records do not state alike (read by no model: it caps the confidence, decision.ts). */
  stationUnknown: { cap: null, decision: false, confidence: false },
  /** Settlement terms both records state differently. */
  ruleDifferences: { cap: 3, decision: false, confidence: true },
} as const;

export type EvidenceFeature = keyof typeof evidenceFeatures;

/** What the engine saw when it compared two markets (all numbers; flags are 0/1). */
export type Evidence = Record<EvidenceFeature, number>;

const featureList = Object.keys(evidenceFeatures) as EvidenceFeature[];

export function emptyEvidence(similarity: number): Evidence {
  const ev = Object.fromEntries(featureList.map((name) => [name, 0])) as Evidence;
  ev.similarity = similarity;
  return ev;
}

/** A feature's value as the models read it (counts saturate at their cap). */
export function featureValue(name: EvidenceFeature, ev: Evidence): number {
  const cap = evidenceFeatures[name].cap;
  return cap === null ? ev[name] : Math.min(cap, ev[name]);
}

/** The features a model reads, in the list's order. */
export const featuresOf = (model: "decision" | "confidence"): EvidenceFeature[] => featureList.filter((name) => evidenceFeatures[name][model]);

export const relationGroups = ["identity", "nesting", "related"] as const;
export type RelationGroup = (typeof relationGroups)[number];

export function groupOf(relation: Relation): RelationGroup {
  return relation === "identity" ? "identity" : relation === "subset" || relation === "superset" ? "nesting" : "related";
}

/** The model's inputs, in the order of the stored weights. */
export const featureNames = [...relationGroups, ...featuresOf("confidence")] as const;

export function featureVector(relation: Relation, ev: Evidence): number[] {
  const group = groupOf(relation);
  return [...relationGroups.map((g) => (g === group ? 1 : 0)), ...featuresOf("confidence").map((name) => featureValue(name, ev))];
}

interface Calibration {
  features: string[];
  weights: number[];
}

const model = calibration as Calibration;

/** The fitted weights, checked against the features they were fitted on (at first use, so the fit itself can run after a feature is added). */
function weights(): number[] {
  if (model.features.join(",") !== featureNames.join(",")) throw new Error("lib/matching/data/calibration.json was fitted on other features: run npm run matching:fit");
  return model.weights;
}

/** A fitted logistic model's probability for inputs `x` (three decimals). */
export function logistic(weights: readonly number[], x: readonly number[]): number {
  let z = 0;
  for (const [i, w] of weights.entries()) z += w * (x[i] ?? 0);
  return Math.round(1000 / (1 + Math.exp(-z))) / 1000;
}

/** The fitted probability that `relation` is right, given the evidence (three decimals). */
export function calibrated(relation: Relation, ev: Evidence): number {
  return logistic(weights(), featureVector(relation, ev));
}
