import { describe, expect, it } from "vitest";
import { EpisodeFolder, joinStretches } from "./episodes";
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

describe("a window folded in stretches (closed days kept: lib/spreads/day-cache.ts)", () => {
  /** A random series: both directions moving around the threshold, unknown stretches, a close at the end sometimes. */
  function series(seed: number, from: number, until: number): SpreadPoint[] {
    let state = seed;
    const random = () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 2_147_483_648;
    };
    const points: SpreadPoint[] = [];
    for (let t = from; t <= until; t += 1 + Math.floor(random() * 3_600_000)) {
      const roll = random();
      const at = point(t, roll < 0.1 ? null : Math.round((random() * 0.06 - 0.02) * 1e4) / 1e4, Math.floor(random() * 100));
      if (at.net !== null) at.net.bToA.perContract = Math.round((random() * 0.06 - 0.03) * 1e4) / 1e4;
      if (roll >= 0.1 && roll < 0.13) points.push({ ...at, known: false, unknown: { a: "market_closed", b: null }, net: null, best: null, gross: null, available: null });
      else points.push(at);
    }
    return points;
  }

  /** The stretch [since, until) of a window's series as the service replays it: the state at `since` as its opening point, then the changes after it. */
  function stretchOf(points: SpreadPoint[], since: number, end: number, last: boolean): ReturnType<EpisodeFolder["stretch"]> {
    const folder = new EpisodeFolder(since, end, 0);
    const opening = points.filter((p) => p.t <= since).at(-1);
    if (opening !== undefined) folder.add({ ...opening, t: since });
    for (const p of points) if (p.t > since && (last ? p.t <= end : p.t < end)) folder.add(p);
    return folder.stretch();
  }

  it("joins to the one pass's episodes and days, whatever the seams (60 seeds, seams at day starts, some on a change)", () => {
    for (let seed = 1; seed <= 60; seed += 1) {
      const since = T0 - 2 * DAY + seed * 61_000;
      const until = T0 + 3 * DAY + seed * 7_000;
      const points = series(seed, since, until);
      // Some seeds open an episode just before a seam and put a change exactly on it: above (the
      // episode continues), below or unknown (it ends at the seam for that reason).
      const seam = Math.ceil(since / DAY) * DAY + DAY;
      if (seed % 2 === 0) points.push(point(seam - 1_000, 0.025), point(seam, [0.03, -0.01, null][seed % 3] ?? null));
      points.sort((x, y) => x.t - y.t);
      const unique = points.filter((p, i) => i === 0 || p.t !== points[i - 1]?.t);
      const whole = new EpisodeFolder(since, until, 0);
      for (const p of unique) whole.add(p);
      const expected = whole.finish();
      const seams = [Math.ceil(since / DAY) * DAY, Math.ceil(since / DAY) * DAY + DAY, Math.ceil(since / DAY) * DAY + 2 * DAY, Math.ceil(since / DAY) * DAY + 3 * DAY].filter((s) => s > since && s < until);
      const edges = [since, ...seams, until];
      const stretches = edges.slice(0, -1).map((from, i) => stretchOf(unique, from, edges[i + 1] ?? until, i === edges.length - 2));
      expect(joinStretches(stretches, since, until), `seed ${seed}`).toEqual(expected);
    }
  });
});
