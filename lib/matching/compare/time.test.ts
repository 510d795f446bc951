import { describe, expect, it } from "vitest";
import type { TimeScope } from "../extract";
import { kx, pm } from "@/test/helpers/matching-markets";
import { compareEventTimes, compareSeasons, compareTime, compareValueTimes, describeTimeFilled } from "./time";

const at = (iso: string): number => Date.parse(`${iso}T00:00:00Z`);
const before = (iso: string, from: string | null = null): TimeScope => ({ kind: "window", start: from === null ? null : at(from), end: at(iso), hour: null, label: "" });
const on = (iso: string, hour: number | null = null): TimeScope => ({ kind: "instant", start: at(iso), end: at(iso) + 86_400_000, hour, label: "" });

describe("time comparator", () => {
  it("nests deadlines and orders instants in windows", () => {
    expect(compareEventTimes(before("2030-07-01"), before("2031-01-01"))).toBe("sub");
    expect(compareEventTimes(before("2031-01-01"), before("2030-07-01"))).toBe("sup");
    expect(compareEventTimes(before("2031-01-01"), before("2031-01-01"))).toBe("equal");
    expect(compareEventTimes(on("2030-03-01"), before("2031-01-01", "2030-01-01"))).toBe("sub");
    expect(compareEventTimes(before("2030-01-01", "2029-01-01"), before("2031-01-01", "2030-01-01"))).toBe("disjoint");
  });

  it("a value's reference period is the same or another; an hour on one side only is loose", () => {
    expect(compareValueTimes(on("2030-03-01"), on("2030-03-02"))).toEqual({ cmp: "disjoint", loose: false });
    expect(compareValueTimes(on("2030-03-01", 17), on("2030-03-01"))).toEqual({ cmp: "equal", loose: true });
    expect(compareValueTimes(on("2030-07-29"), before("2030-08-01", "2030-07-01"))).toEqual({ cmp: "equal", loose: true });
  });

  it("fills an undated side from its rules, and says so as data", () => {
    const dated = pm("Xandor recognition", "Will Zorbia recognise Xandor before 2031?");
    const undated = kx("Xandor recognition", "Will Zorbia recognise Xandor?", "", {
      description: "If Zorbia formally recognises Xandor as a sovereign state after Issuance and before Jan 1, 2031, the market resolves to Yes.",
    });
    const t = compareTime(dated, undated, null);
    expect(t.filled?.source).toBe("rules");
    expect(t.state).toBe("same");
    expect(t.kind).toBe("event");
    if (t.filled !== null) expect(describeTimeFilled(t.filled)).toBe("kalshi's rules state before 2031-01-01");
  });

  it("a date on one side only, with nothing to fill it, is oneSide", () => {
    const dated = pm("Northern Cup", "Will the Springfield Owls win the 2030 Northern Cup?");
    const undated = kx("Northern Cup", "Will the Springfield Owls win the Northern Cup?", "the Springfield Owls win the Northern Cup", { resolutionDate: null });
    const t = compareTime(dated, undated, null);
    expect(t.state).toBe("oneSide");
    expect(t.filled).toBeNull();
  });

  it("seasons: another season is a conflict", () => {
    const a = pm("League 2029-30", "Will the Owls win the 2029-30 league?");
    const b = kx("League 2030-31", "Will the Owls win the 2030-31 league?", "the Owls win the 2030-31 league");
    const r = compareSeasons(a, b);
    expect(r.state).toBe("conflict");
    expect(new Set(r.a)).toEqual(new Set(["2029-30"]));
    expect(new Set(r.b)).toEqual(new Set(["2030-31"]));
    expect(compareSeasons(a, a).state).toBe("same");
  });
});
