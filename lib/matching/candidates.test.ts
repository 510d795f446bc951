import { describe, expect, it } from "vitest";
import { CandidateIndex } from "./candidates";

describe("candidate index", () => {
  it("nominates by the rarest key and ranks on every shared key, other venues only", () => {
    const markets = [
      { id: "k-miami-15", venue: "kalshi", keys: ["temperature", "miami", "t:2026-07-15"] },
      { id: "k-austin-15", venue: "kalshi", keys: ["temperature", "austin", "t:2026-07-15"] },
      { id: "k-miami-16", venue: "kalshi", keys: ["temperature", "miami", "t:2026-07-16"] },
      { id: "p-austin-15", venue: "polymarket", keys: ["temperature", "austin", "t:2026-07-15"] },
      ...Array.from({ length: 50 }, (_, i) => ({ id: `k-other-${i}`, venue: "kalshi", keys: ["temperature", `city${i}`, `t:2026-08-${i}`] })),
    ];
    const index = new CandidateIndex(markets);
    const probe = { id: "p-miami-15", venue: "polymarket", keys: ["temperature", "miami", "t:2026-07-15"] };
    const found = index.candidates(probe, { limit: 3, budget: 10 });
    expect(found[0]).toBe("k-miami-15");
    expect(found).not.toContain("p-austin-15");
    expect(found.slice(1).sort()).toEqual(["k-austin-15", "k-miami-16"]);
  });

  it("replaces a market's keys on upsert: its old keys no longer nominate it", () => {
    const index = new CandidateIndex([
      { id: "k1", venue: "kalshi", keys: ["miami", "t:2026-07-15"] },
      { id: "k2", venue: "kalshi", keys: ["austin", "t:2026-07-15"] },
    ]);
    const probe = { id: "p1", venue: "polymarket", keys: ["miami", "t:2026-07-15"] };
    expect(index.candidates(probe, { limit: 1 })).toEqual(["k1"]);
    index.upsert([{ id: "k1", venue: "kalshi", keys: ["chicago", "t:2026-08-01"] }]);
    expect(index.size).toBe(2);
    expect(index.candidates(probe, { limit: 2 })).toEqual(["k2"]);
  });
});
