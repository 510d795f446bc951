import { describe, expect, it } from "vitest";
import { coverageGaps, hourlyCoverage, HOUR_MS, type CoverageInput } from "./coverage-model";

const T = Date.UTC(2026, 10, 20, 0, 0, 0);
const h = (n: number) => T + n * HOUR_MS;
const base: CoverageInput = { since: h(0), until: h(4), now: h(10), runs: [{ start: h(0), end: h(4) }], subscribed: [{ start: h(0), end: h(4) }], lost: [], incidents: [] };
const conditions = (input: CoverageInput) => hourlyCoverage(input).map((c) => c.condition);

describe("hourly coverage", () => {
  it.each([
    ["recorded throughout, no incident", base, ["available", "available", "available", "available"]],
    ["never subscribed", { ...base, subscribed: [] }, ["missing", "missing", "missing", "missing"]],
    ["recorder down for hours 1-2 (kill -9, restart later)", { ...base, runs: [{ start: h(0), end: h(1) }, { start: h(3), end: h(4) }] }, ["available", "missing", "missing", "available"]],
    ["a restart inside hour 2", { ...base, runs: [{ start: h(0), end: h(2) + 60_000 }, { start: h(2) + 90_000, end: h(4) }] }, ["available", "available", "degraded", "available"]],
    ["connection lost for 30 s in hour 1", { ...base, lost: [{ start: h(1) + 5_000, end: h(1) + 35_000 }], incidents: [{ start: h(1) + 5_000, end: h(1) + 35_000 }] }, ["available", "degraded", "available", "available"]],
    ["an instant incident (malformed frame) in hour 3", { ...base, incidents: [{ start: h(3) + 1, end: h(3) + 1 }] }, ["available", "available", "available", "degraded"]],
    ["subscribed from the middle of hour 1", { ...base, subscribed: [{ start: h(1) + HOUR_MS / 2, end: h(4) }] }, ["missing", "degraded", "available", "available"]],
    ["a lost connection spanning all of hour 2", { ...base, lost: [{ start: h(1) + 1000, end: h(3) }], incidents: [{ start: h(1) + 1000, end: h(3) }] }, ["available", "degraded", "missing", "available"]],
    ["a synthetic demo history over hours 0-2, no recorder then", { ...base, runs: [{ start: h(3), end: h(4) }], synthetic: [{ start: h(0), end: h(3) }] }, ["synthetic", "synthetic", "synthetic", "available"]],
    ["a recorder beside a synthetic history: the recording wins", { ...base, synthetic: [{ start: h(0), end: h(4) }] }, ["available", "available", "available", "available"]],
  ] as const)("%s", (_name, input, expected) => {
    expect(conditions(input)).toEqual(expected);
  });

  it("stops at now: the current hour is judged on its elapsed part, later hours are not listed", () => {
    const coverage = hourlyCoverage({ ...base, until: h(6), now: h(2) + HOUR_MS / 2, runs: [{ start: h(0), end: h(2) + HOUR_MS / 2 }], subscribed: [{ start: h(0), end: h(6) }] });
    expect(coverage.map((c) => [c.hour, c.condition, c.recorded])).toEqual([
      [h(0), "available", 1],
      [h(1), "available", 1],
      [h(2), "available", 1],
    ]);
  });

  it("labels the span of a synthetic history as such among the gaps, not as the recorder down", () => {
    const gaps = coverageGaps({ ...base, runs: [{ start: h(3), end: h(4) }], synthetic: [{ start: h(0), end: h(2) }] });
    expect(gaps).toEqual([
      { start: h(0), end: h(2), reason: "synthetic" },
      { start: h(2), end: h(3), reason: "recorder_down" },
    ]);
  });

  it("lists the gaps with their reason", () => {
    const gaps = coverageGaps({
      ...base,
      runs: [{ start: h(0), end: h(1) }, { start: h(2), end: h(4) }],
      subscribed: [{ start: h(0) + 1000, end: h(4) }],
      lost: [{ start: h(3), end: h(3) + 5000 }],
    });
    expect(gaps).toEqual([
      { start: h(0), end: h(0) + 1000, reason: "not_subscribed" },
      { start: h(1), end: h(2), reason: "recorder_down" },
      { start: h(3), end: h(3) + 5000, reason: "connection_lost" },
    ]);
  });
});
