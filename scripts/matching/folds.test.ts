import { describe, expect, it } from "vitest";
import { chooseThreshold, crossValidate, precisionLowerBound, trainingRows, withReviews, type Candidate } from "./folds";

const row = (pair: string, fold: number, y: number, signal: number): Candidate => ({ pair, set: "template", fold, x: [1, signal], y });

describe("folds with reviewed pairs", () => {
  it("a reviewed pair is fitted on in every fold but its own topic's, and never scored", () => {
    const candidates = [row("a|1", 0, 1, 1), row("b|2", 1, 0, -1), row("c|3", 2, 1, 1), row("d|4", 0, 0, -1)];
    // An operator rejected c|3 (a fold-2 pair the set labels as an identity).
    const { candidates: scored, extra } = withReviews(candidates, new Map([["c|3", 0]]));
    expect(scored.map((c) => c.pair)).toEqual(["a|1", "b|2", "d|4"]);
    expect(extra).toEqual([{ ...row("c|3", 2, 1, 1), y: 0 }]);
    const folds = [0, 1, 2];
    expect(trainingRows(scored, extra, 2, folds).map((c) => c.pair)).toEqual(["a|1", "b|2", "d|4"]);
    expect(trainingRows(scored, extra, 0, folds).map((c) => c.pair)).toEqual(["b|2", "c|3"]);
    // Inner folds: a fold outside those being cross-validated is never fitted on.
    expect(trainingRows(scored, extra, 0, [0, 1]).map((c) => c.pair)).toEqual(["b|2"]);
    const cv = crossValidate(scored, [1, 0, 0], extra);
    expect(cv.scored.map((s) => s.pair).sort()).toEqual(["a|1", "b|2", "d|4"]);
  });

  it("the threshold's precision target needs a margin for the claims it rests on", () => {
    expect(precisionLowerBound(0, 0)).toBe(0);
    // 19 of 20 is 0.95, but on 20 claims not yet reliably so; 117 of 119 is.
    expect(precisionLowerBound(19, 20)).toBeLessThan(0.95);
    expect(precisionLowerBound(117, 119)).toBeGreaterThanOrEqual(0.95);
    expect(precisionLowerBound(121, 126)).toBeLessThan(0.95);
    expect(precisionLowerBound(50, 50)).toBeGreaterThan(precisionLowerBound(10, 10));
  });

  it("the threshold chosen meets the target there and at every stricter threshold that claims anything", () => {
    // 120 right claims at 0.9 and above; two wrong ones at 0.5, four wrong ones at 0.85, then 80 right ones at 0.3.
    const scored = [
      ...Array.from({ length: 120 }, (_, i) => ({ pair: `r${i}|k${i}`, set: "s", fold: 0, x: [], y: 1, p: 0.95 })),
      ...Array.from({ length: 4 }, (_, i) => ({ pair: `w${i}|v${i}`, set: "s", fold: 0, x: [], y: 0, p: 0.85 })),
      ...Array.from({ length: 2 }, (_, i) => ({ pair: `u${i}|t${i}`, set: "s", fold: 0, x: [], y: 0, p: 0.5 })),
      ...Array.from({ length: 80 }, (_, i) => ({ pair: `q${i}|j${i}`, set: "s", fold: 0, x: [], y: 1, p: 0.3 })),
    ];
    const { threshold, grid } = chooseThreshold(scored, 200);
    // At 0.3 the precision (200 of 206) passes with its margin, at 0.85 (120 of 124) it does not: the
    // next step above the four wrong claims, 0.86, is chosen.
    expect(precisionLowerBound(grid.find((g) => g.threshold === 0.3)?.right ?? 0, grid.find((g) => g.threshold === 0.3)?.claimed ?? 0)).toBeGreaterThanOrEqual(0.95);
    expect(threshold).toBe(0.86);
  });

  it("a pair's confidence ceiling holds in every fold's scores, as the product serves it", () => {
    const strong = (pair: string, fold: number) => row(pair, fold, 1, 3);
    const candidates = [strong("a|1", 0), strong("b|2", 1), strong("e|5", 1), strong("f|6", 2), strong("g|7", 2), row("c|3", 2, 0, -3), row("h|8", 1, 0, -3), { ...strong("d|4", 0), ceiling: 0.89 }];
    const cv = crossValidate(candidates, [2, 2, 2]);
    const p = (pair: string) => cv.scored.find((s) => s.pair === pair)?.p ?? 0;
    expect(p("a|1")).toBeGreaterThan(0.89);
    expect(p("d|4")).toBe(0.89);
  });

  it("the threshold can fall between twentieths: the grid is every hundredth", () => {
    // 60 right claims at 0.87, two wrong ones at 0.86, 40 right ones at 0.5: 0.87 keeps the 60 and none wrong.
    const scored = [
      ...Array.from({ length: 60 }, (_, i) => ({ pair: `r${i}|k${i}`, set: "s", fold: 0, x: [], y: 1, p: 0.87 })),
      ...Array.from({ length: 2 }, (_, i) => ({ pair: `w${i}|v${i}`, set: "s", fold: 0, x: [], y: 0, p: 0.86 })),
      ...Array.from({ length: 40 }, (_, i) => ({ pair: `q${i}|j${i}`, set: "s", fold: 0, x: [], y: 1, p: 0.5 })),
    ];
    expect(chooseThreshold(scored, 100).threshold).toBe(0.87);
  });
});
