import { describe, expect, it } from "vitest";
import { compareContexts } from "./context";
import { kx, pm } from "@/test/helpers/matching-markets";

describe("context comparator", () => {
  it("agrees on a shared place and answers another state as a conflict", () => {
    const ohio = pm("Senate race", "Will the Democrats win the Ohio Senate race in 2030?");
    const ohio2 = kx("Ohio Senate race 2030", "Democrats", "the Democrats win the Ohio Senate race in 2030");
    const iowa = kx("Iowa Senate race 2030", "Democrats", "the Democrats win the Iowa Senate race in 2030");
    const same = compareContexts(ohio, ohio2);
    expect(same.diffs).toEqual([]);
    expect(same.agreed.length).toBeGreaterThan(0);
    const other = compareContexts(ohio, iowa);
    expect(other.diffs.map((d) => d.type)).toContain("state");
  });

  it("a title win nests in the conference win of the same league", () => {
    const title = pm("NBA Finals 2030", "Will the Springfield Owls win the 2030 NBA Finals?");
    const conference = kx("NBA Western Conference 2030", "Springfield Owls", "the Springfield Owls win the 2030 NBA Western Conference");
    const r = compareContexts(title, conference);
    expect(r.diffs).toEqual([]);
    expect(r.stage).toBe("sub");
  });
});
