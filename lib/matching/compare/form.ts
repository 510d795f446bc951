/**
 * Form comparator: how each question is put: negated or not, Yes on any of several criteria or on
 * one, and the ordinal positions it names ("second place").
 */
import type { Features } from "../extract";
import type { AttributeState } from "./types";

export interface FormComparison {
  /** One question is negated. */
  negation: boolean;
  /** Which side resolves Yes on any of several criteria, when only one does. */
  disjunctive: "a" | "b" | null;
  /** Ordinal positions: the same, different (`conflict`), on one side only, or none. */
  ordinals: AttributeState;
  a: string[];
  b: string[];
}

/** The form comparator. */
export function compareForm(a: Features, b: Features): FormComparison {
  const both = a.ordinals.length > 0 && b.ordinals.length > 0;
  const differ = a.ordinals.join(",") !== b.ordinals.join(",");
  const ordinals: AttributeState = differ ? (both ? "conflict" : "oneSide") : a.ordinals.length > 0 ? "same" : "absent";
  return {
    negation: a.negated !== b.negated,
    disjunctive: a.disjunctive === b.disjunctive ? null : a.disjunctive ? "a" : "b",
    ordinals,
    a: a.ordinals.map(String),
    b: b.ordinals.map(String),
  };
}
