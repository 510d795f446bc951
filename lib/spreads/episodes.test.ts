import { describe, expect, it } from "vitest";
import { EpisodeFolder } from "./episodes";
import type { SpreadPoint } from "./shapes";

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 24, 23, 0, 0);

/** A point whose aToB net per contract is `net` (null: unknown at t). */
function point(t: number, net: number | null, available = 10): SpreadPoint {
  if (net === null) return { t, known: false, unknown: { a: null, b: "not_recorded" }, a: null, b: null, gross: null, net: null, best: null, available: null };
  const side = (perContract: number | null) => ({ perContract, total: perContract === null ? null : perContract * 10, fillable: 10, fees: 0.01, buyPrice: 0.5, sellPrice: 0.5 });
  return {
    t,
    known: true,
    unknown: null,
    a: { bid: 0.49, bidSize: 10, ask: 0.5, askSize: 10 },
    b: { bid: 0.55, bidSize: 10, ask: 0.56, askSize: 10 },
    gross: { aToB: Math.round((net + 0.01) * 1e6) / 1e6, bToA: -0.07 },
    net: { aToB: side(net), bToA: side(-0.08) },
    best: net,
    available: { aToB: available, bToA: 0 },
  };
}

describe("episodes folded from the every-change series", () => {
  it("opens above the threshold, keeps the peak and its size, closes at the first point below, and counts per UTC day", () => {
    const folder = new EpisodeFolder(T0, T0 + 3 * 3_600_000, 0);
    for (const p of [point(T0, -0.01), point(T0 + 1000, 0.02, 40), point(T0 + 5000, 0.05, 25), point(T0 + 9000, 0.01), point(T0 + 20_000, 0)]) folder.add(p);
    const { episodes, days } = folder.finish();
    expect(episodes).toEqual([{ direction: "aToB", start: T0 + 1000, end: T0 + 20_000, durationMs: 19_000, endedBy: "below_threshold", peak: 0.05, peakAt: T0 + 5000, grossAtPeak: 0.06, sizeAtPeak: 25 }]);
    expect(days.map((d) => d.day)).toEqual(["2026-11-24", "2026-11-25"]);
    expect(days[0]).toMatchObject({ episodes: 1, executableMs: 19_000, longestMs: 19_000, peak: 0.05, sizeAtPeak: 25, knownMs: 3_600_000 });
    expect(days[1]).toMatchObject({ episodes: 0, executableMs: 0, knownMs: 2 * 3_600_000 });
  });

  it("ends an episode where a book becomes unknown and never carries it across the gap", () => {
    const folder = new EpisodeFolder(T0, T0 + 60_000, 0);
    for (const p of [point(T0, 0.03), point(T0 + 10_000, null), point(T0 + 20_000, 0.03), point(T0 + 30_000, 0.03)]) folder.add(p);
    const { episodes, days } = folder.finish();
    expect(episodes.map((e) => [e.start - T0, e.end - T0, e.endedBy])).toEqual([
      [0, 10_000, "unknown"],
      [20_000, 60_000, "window_end"],
    ]);
    expect(days[0]?.knownMs).toBe(50_000);
  });

  it("ends an episode with `resolution` where a market of the pair stopped trading, and opens none after it", () => {
    const folder = new EpisodeFolder(T0, T0 + 60_000, 0);
    const closed = (t: number): SpreadPoint => ({ ...point(t, null), unknown: { a: "market_closed", b: null } });
    for (const p of [point(T0, 0.03), point(T0 + 5_000, 0.04), closed(T0 + 12_000), closed(T0 + 30_000)]) folder.add(p);
    const { episodes, days } = folder.finish();
    expect(episodes).toEqual([{ direction: "aToB", start: T0, end: T0 + 12_000, durationMs: 12_000, endedBy: "resolution", peak: 0.04, peakAt: T0 + 5_000, grossAtPeak: 0.05, sizeAtPeak: 10 }]);
    expect(days[0]).toMatchObject({ knownMs: 12_000, executableMs: 12_000 });
  });

  it("splits time across UTC days", () => {
    const folder = new EpisodeFolder(T0, T0 + 2 * 3_600_000, 0.01);
    folder.add(point(T0 + 30 * 60_000, 0.02));
    const { days } = folder.finish();
    expect(days.map((d) => d.executableMs)).toEqual([30 * 60_000, DAY / 24]);
  });
});
