import { describe, expect, it } from "vitest";
import { describeDifferences, formatProbability, renderReasoning, whyNotIdentity, yesStandsFor, type Difference } from "./reasoning";

describe("a match's comparison as text", () => {
  it("names the differences that keep an overlap from being an identity, from the data", () => {
    const time: Difference = { attribute: "time", state: "conflict", a: ["before 2030-03-31"], b: ["before 2030-06-30"] };
    expect(whyNotIdentity("overlap", [time], "Alpha", "Beta")).toBe("Different time: Alpha before 2030-03-31 vs Beta before 2030-06-30");
    const wording: Difference = { attribute: "wording", state: "oneSide", a: ["blue"], b: [] };
    expect(whyNotIdentity("overlap", [wording], "Alpha", "Beta")).toBe("Wording differs (Alpha says blue, the other does not)");
    expect(whyNotIdentity("overlap", [{ attribute: "ambiguity", state: "conflict", a: ["1"], b: [] }])).toMatch(/^One of the two markets reads the same as 1 other market/);
    const rules: Difference[] = [
      { attribute: "rules", state: "conflict", label: "trigger", a: ["an announcement counts"], b: ["the act itself"] },
      { attribute: "option", state: "conflict", a: ["quinn", "example"], b: ["rowan", "sample"] },
    ];
    expect(describeDifferences(rules, "Kalshi", "Polymarket")).toBe('different option: Kalshi quinn example vs Polymarket rowan sample; rules differ (what counts: Kalshi "an announcement counts" vs Polymarket "the act itself")');
  });

  it("says nothing for other relations or when no difference was recorded", () => {
    const time: Difference = { attribute: "time", state: "conflict", a: ["x"], b: ["y"] };
    expect(whyNotIdentity("identity", [time])).toBeNull();
    expect(whyNotIdentity("subset", [time])).toBeNull();
    expect(whyNotIdentity("overlap", [])).toBeNull();
    expect(whyNotIdentity("overlap", null)).toBeNull();
  });

  it("renders a reasoning from its clauses and what the relation means", () => {
    expect(renderReasoning(["same threshold", "same time on 2030-01-01"], { kind: "identity" }, "A", "B")).toBe("Same threshold; same time on 2030-01-01. Yes on one is Yes on the other.");
    expect(renderReasoning(["x"], { kind: "subset" }, "A", "B")).toBe("X. Yes on A implies Yes on B.");
    expect(renderReasoning(["x"], { kind: "ambiguous", others: 2 }, "A", "B")).toBe(
      "X. Not an identity: one of the two markets reads the same as 2 other market(s) of the other venue, so which one is the same question is ambiguous.",
    );
  });

  it("shows a confidence as a probability and what Yes stands for", () => {
    expect(formatProbability(0.934)).toBe("93%");
    expect(formatProbability(0.996)).toBe("> 99%");
    expect(formatProbability(1)).toBe("100%");
    expect(formatProbability(0.004)).toBe("< 1%");
    expect(yesStandsFor({ title: "Who wins the prize?", outcomes: [{ label: "Candidate Q" }] })).toBe("Candidate Q");
    expect(yesStandsFor({ title: "Will it rain?", outcomes: [{ label: "Yes" }] })).toBeNull();
    expect(yesStandsFor({ title: "Will it rain?", outcomes: [{ label: "Will it rain?" }] })).toBeNull();
    expect(yesStandsFor({ title: "Will it rain?", outcomes: [] })).toBeNull();
  });
});
