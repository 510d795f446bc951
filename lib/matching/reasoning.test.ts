import { describe, expect, it } from "vitest";
import { formatProbability, whyNotIdentity, yesStandsFor } from "./reasoning";

describe("reading a match's reasoning for display", () => {
  it("names the difference that keeps an overlap from being an identity", () => {
    expect(whyNotIdentity("overlap", "Same entity; different time: Alpha by 2030-03-31 vs Beta by 2030-06-30. The same measure at another time: both can resolve Yes.")).toBe(
      "Different time: Alpha by 2030-03-31 vs Beta by 2030-06-30",
    );
    expect(whyNotIdentity("overlap", "Same option: widget; not the same question: wording differs (Alpha says blue, the other does not). Related: both can resolve Yes, neither implies the other.")).toBe(
      "Wording differs (Alpha says blue, the other does not)",
    );
    expect(whyNotIdentity("overlap", "Same threshold; same time 2030-01-01. Not an identity: one of the two markets reads the same as 1 other market(s) of the other venue, so which one is the same question is ambiguous.")).toMatch(
      /^one of the two markets reads the same as 1 other market/,
    );
    // Nothing recognisable: the first sentence, never nothing.
    expect(whyNotIdentity("overlap", "Loosely related topics. Related: both can resolve Yes.")).toBe("Loosely related topics.");
  });

  it("says nothing for other relations or a missing reasoning", () => {
    expect(whyNotIdentity("identity", "Same entity; same time. Yes on one is Yes on the other.")).toBeNull();
    expect(whyNotIdentity("subset", "Thresholds: Alpha above 5 vs Beta above 4. Yes on Alpha implies Yes on Beta.")).toBeNull();
    expect(whyNotIdentity("overlap", null)).toBeNull();
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
