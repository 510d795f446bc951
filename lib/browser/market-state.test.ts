import { describe, expect, it } from "vitest";
import { defaultMarketChartState, marketChartSearch, parseMarketChartState, recordedSpan } from "./market-state";

describe("market chart URL state", () => {
  it.each([
    ["", defaultMarketChartState],
    ["?outcome=1&interval=5m&range=24h", { outcome: 1, interval: "5m", range: "24h" }],
    ["?outcome=7&interval=2h&range=1y", defaultMarketChartState],
    ["?outcome=-1", defaultMarketChartState],
    ["?outcome=0.5", defaultMarketChartState],
  ])("parses %s for a two-outcome market", (search, expected) => {
    expect(parseMarketChartState(new URLSearchParams(search), 2)).toEqual(expected);
  });

  it("round-trips and omits defaults", () => {
    const state = { outcome: 1, interval: "1d" as const, range: "30d" as const };
    expect(marketChartSearch(state)).toBe("?outcome=1&interval=1d&range=30d");
    expect(parseMarketChartState(new URLSearchParams(marketChartSearch(state)), 2)).toEqual(state);
    expect(marketChartSearch(defaultMarketChartState)).toBe("");
  });

  it("says when the range is longer than the recorded data", () => {
    const now = 1_800_000_000;
    // Two days recorded, 30 days asked: about two days covered.
    expect(recordedSpan(now - 2 * 86_400, { interval: "1h", range: "30d" }, now)).toBe(2 * 86_400);
    // Data from the range's start (within one interval): nothing to say.
    expect(recordedSpan(now - 7 * 86_400 + 1800, { interval: "1h", range: "7d" }, now)).toBeUndefined();
    expect(recordedSpan(undefined, { interval: "1h", range: "7d" }, now)).toBeUndefined();
  });
});
