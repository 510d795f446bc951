/**
 * The identity decision. When nothing two markets both state conflicts, whether they are one
 * question is decided from the whole comparison vector (how much of the topic is shared, names and
 * words one side states and the other leaves unsaid, words said in other words, a date filled from
 * a market's own context, an abbreviated option, a one-tick strike, ...) by a regularised logistic
 * regression fitted on labelled pairs (scripts/matching/fit.ts, `npm run matching:fit`), with the
 * identity threshold chosen on the validation topics for precision. Its output is the identity's
 * confidence: the fitted probability that the two are one question.
 *
 * The weights and the threshold are data (data/decision.json, with how, when and on what they were
 * produced, and the validation figures that chose the threshold).
 */
import decision from "./data/decision.json";
import { featuresOf, featureValue, logistic, type Evidence } from "./confidence";

/** The decision's inputs, in the order of the stored weights. */
export const decisionFeatures = ["bias", ...featuresOf("decision")] as const;

export function decisionVector(ev: Evidence): number[] {
  return [1, ...featuresOf("decision").map((name) => featureValue(name, ev))];
}

interface Decision {
  features: string[];
  weights: number[];
  threshold: number;
}

const model = decision as Decision;

/** Lowest fitted probability at which two markets are stated to be one question. */
export const identityThreshold = model.threshold;

/**
 * The highest confidence an identity may be served with. One resting on a date that one side never
 * states, taken from that market's resolution date (`dateFromResolution`), is at most 0.89: the
 * venue's resolution date says when the market closes, not which occasion (which season, which
 * year's final) its question is about, so the pair is never in the 0.9 tier on that inference alone,
 * though it may be claimed. So is one on a measure read at a weather station (a day's high
 * temperature, a snow total) whose station the two rules do not both state alike
 * (`stationUnknown`): the same measure in the same city read at another station settles
 * differently, and an unknown station is never the same. Every other identity: its fitted probability.
 */
export function confidenceCeiling(ev: Evidence): number {
  return ev.dateFromResolution > 0 || ev.stationUnknown > 0 ? INFERRED_DATE_CEILING : 1;
}

const INFERRED_DATE_CEILING = 0.89;

/** The fitted probability that two markets whose stated attributes agree are one question (three decimals), under its ceiling. */
export function identityProbability(ev: Evidence): number {
  // Checked at first use, so the fit itself can run after a feature is added.
  if (model.features.join(",") !== decisionFeatures.join(",")) throw new Error("lib/matching/data/decision.json was fitted on other features: run npm run matching:fit");
  return Math.min(logistic(model.weights, decisionVector(ev)), confidenceCeiling(ev));
}
