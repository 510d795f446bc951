import { describe, expect, it } from "vitest";
import { countAxis } from "./format";

describe("the usage chart's count axis", () => {
  it("has round ticks, at most five intervals, a top at or above the largest count", () => {
    expect(countAxis(50)).toEqual({ top: 50, ticks: [0, 10, 20, 30, 40, 50] });
    expect(countAxis(0)).toEqual({ top: 1, ticks: [0, 1] });
    expect(countAxis(3)).toEqual({ top: 3, ticks: [0, 1, 2, 3] });
    expect(countAxis(137).ticks).toEqual([0, 50, 100, 150]);
    for (const max of [1, 7, 13, 49, 51, 99, 101, 999, 12_345]) {
      const { top, ticks } = countAxis(max);
      expect(top).toBeGreaterThanOrEqual(max);
      expect(ticks.length - 1).toBeLessThanOrEqual(5);
      const step = ticks[1] ?? 0;
      expect(Number.isInteger(step) && /^[125]0*$/.test(String(step))).toBe(true);
    }
  });
});
