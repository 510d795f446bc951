import { describe, expect, it } from "vitest";
import { emptyEvidence } from "../confidence";
import { decisionFeatures, decisionVector } from "../decision";
import { evidenceOf, type Comparison } from "./features";

const base = (): Comparison => ({
  similarity: 0.8,
  wording: { names: { a: [], b: [] }, words: { a: [], b: [] }, paraphrased: { a: [], b: [] } },
  context: { diffs: [], agreed: [], stage: null, oneSide: [] },
});

describe("feature factory", () => {
  it("a comparison with nothing found is the empty evidence of its similarity", () => {
    expect(evidenceOf(base())).toEqual(emptyEvidence(0.8));
  });

  it("counts names, words and paraphrases on both sides", () => {
    const c = base();
    c.wording = { names: { a: ["zorbia"], b: ["xandor", "quill"] }, words: { a: ["blue"], b: [] }, paraphrased: { a: [{ word: "visit", as: "travel to" }], b: [] } };
    expect(evidenceOf(c)).toMatchObject({ unmatchedNames: 3, unmatchedWords: 1, paraphrased: 1 });
  });

  it("maps each comparator's answer to its feature", () => {
    const c = base();
    c.context.oneSide = [{ type: "city", a: ["springfield"], b: [] }];
    c.option = { state: "oneSide", abbreviated: false, inOtherQuestion: true, a: ["ada", "quill"], b: null };
    c.quantity = { state: "same", cmp: "equal", tick: true, complement: false, a: null, b: null };
    c.time = { filled: null, a: null, b: null, kind: "oneSide", state: "oneSide", cmp: "equal", outside: false, quantityCmp: null, loose: false };
    c.form = { negation: false, disjunctive: "a", ordinals: "oneSide", a: ["1"], b: [] };
    c.disjunctiveCounted = true;
    c.rules = { sources: "conflict", sharedSources: [], differences: [{ term: "trigger", a: "x", b: "y" }], same: ["act"], oneSide: ["stage", "observation"], stationUnknown: false, leaderboardOneSide: null };
    expect(evidenceOf(c)).toMatchObject({ settlementSame: 1, settlementOneSide: 2, contextOneSide: 1, optionOneSide: 1, tick: 1, dateOneSide: 1, ordinalOneSide: 1, disjunctive: 1, sourcesDiffer: 1, ruleDifferences: 1, timeDiff: 0 });
  });

  it("a time filled from rules or from the resolution date, and a conflict", () => {
    const rules = base();
    rules.time = { filled: { source: "rules", venue: "kalshi", time: { kind: "window", start: null, end: 0, hour: null, label: "" } }, a: null, b: null, kind: "event", state: "same", cmp: "equal", outside: false, quantityCmp: null, loose: false };
    expect(evidenceOf(rules)).toMatchObject({ dateInferred: 1, dateFromResolution: 0 });
    const other = base();
    other.time = { filled: null, a: null, b: null, kind: "value", state: "conflict", cmp: "disjoint", outside: false, quantityCmp: null, loose: false };
    expect(evidenceOf(other).timeDiff).toBe(1);
    const season = base();
    season.season = { state: "conflict", a: ["2029-30"], b: ["2030-31"] };
    expect(evidenceOf(season).timeDiff).toBe(1);
  });

  it("feeds every feature the fitted decision reads", () => {
    const ev = evidenceOf(base());
    expect(decisionVector(ev)).toHaveLength(decisionFeatures.length);
    for (const name of decisionFeatures) if (name !== "bias") expect(ev).toHaveProperty(name);
  });
});
