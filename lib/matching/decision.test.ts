import { describe, expect, it } from "vitest";
import { emptyEvidence } from "./confidence";
import { confidenceCeiling, identityProbability } from "./decision";

describe("the identity decision's ceiling", () => {
  it("an identity resting on a date read from one side's resolution date is never served at 0.9 or above", () => {
    const stated = emptyEvidence(1);
    const inferred = { ...emptyEvidence(1), dateFromResolution: 1 };
    expect(confidenceCeiling(stated)).toBe(1);
    expect(confidenceCeiling(inferred)).toBeLessThan(0.9);
    expect(identityProbability(inferred)).toBeLessThanOrEqual(confidenceCeiling(inferred));
    // The ceiling lowers nothing else: the same evidence without the inferred date keeps its fitted chance.
    expect(identityProbability(stated)).toBeGreaterThanOrEqual(identityProbability(inferred));
  });
});
