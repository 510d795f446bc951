import { describe, expect, it } from "vitest";
import { ambiguousIdentities, prunedWeak, settleVerdicts, WeakVerdicts, type PolicyVerdict } from "./policy";

const venue = (id: string) => (id.startsWith("p") ? "polymarket" : "kalshi");
const v = (a: string, b: string, relation: PolicyVerdict["relation"], confidence = 0.9): [string, PolicyVerdict] => [`${a}|${b}`, { a, b, relation, confidence }];

describe("ambiguity and pruning policy", () => {
  it("a market identical to two markets of the other venue makes both identities ambiguous", () => {
    const verdicts = new Map([v("p1", "k1", "identity"), v("p1", "k2", "identity"), v("p2", "k3", "identity")]);
    expect(ambiguousIdentities(verdicts, venue)).toEqual(new Map([["p1|k1", 1], ["p1|k2", 1]]));
  });

  it("keeps every identity and nesting, and each market's strongest weak verdicts", () => {
    const verdicts = new Map([
      v("p1", "k1", "overlap", 0.5),
      v("p1", "k2", "overlap", 0.7),
      v("p1", "k3", "disjoint", 0.6),
      v("p2", "k1", "overlap", 0.8),
      v("p3", "k1", "overlap", 0.9),
      v("p1", "k4", "subset", 0.1),
      v("p1", "k5", "identity", 0.9),
    ]);
    // p1 keeps k2 and k3, k1 keeps p3 and p2: nobody keeps p1|k1. A verdict stays when either side keeps it.
    expect(prunedWeak(verdicts, 2)).toEqual(new Set(["p1|k1"]));
    expect(prunedWeak(verdicts, 3)).toEqual(new Set());
  });

  it("settles a pass: ambiguous identities demoted, then weak ones pruned, the input untouched", () => {
    const verdicts = new Map([v("p1", "k1", "identity", 0.95), v("p1", "k2", "identity", 0.9), v("p2", "k3", "overlap", 0.2)]);
    const demote = (x: PolicyVerdict, others: number): PolicyVerdict => ({ ...x, relation: "overlap", confidence: others / 10 });
    const settled = settleVerdicts(verdicts, { venueOf: venue, demote, weakPerMarket: 1 });
    expect(settled.get("p1|k1")).toMatchObject({ relation: "overlap", confidence: 0.1 });
    // p1 keeps one weak verdict of its two; k2 keeps its only one, so both stay.
    expect([...settled.keys()].sort()).toEqual(["p1|k1", "p1|k2", "p2|k3"]);
    expect(verdicts.get("p1|k1")?.relation).toBe("identity");
    const tight = settleVerdicts(new Map([v("p1", "k1", "overlap", 0.5), v("p1", "k2", "overlap", 0.4), v("p3", "k2", "overlap", 0.6)]), { venueOf: venue, demote, weakPerMarket: 1 });
    expect([...tight.keys()].sort()).toEqual(["p1|k1", "p3|k2"]);
  });

  it("weak verdicts collected as a pass finds them hold a few a market, and settle exactly as every one of them would", () => {
    // A seeded pass: 40 markets a venue, every pair compared, confidences on a coarse grid (ties).
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const relations: Array<PolicyVerdict["relation"]> = ["overlap", "overlap", "disjoint", "identity", "subset"];
    const all = new Map<string, PolicyVerdict>();
    for (let i = 0; i < 40; i += 1) for (let j = 0; j < 40; j += 1) if (random() < 0.3) all.set(`p${i}|k${j}`, { a: `p${i}`, b: `k${j}`, relation: relations[Math.floor(random() * relations.length)] ?? "overlap", confidence: Math.round(random() * 10) / 10 });
    const demote = (x: PolicyVerdict, others: number): PolicyVerdict => ({ ...x, relation: "overlap", confidence: 0.5 + others / 100 });
    for (const perMarket of [1, 2, 4]) {
      const weak = new WeakVerdicts<PolicyVerdict>(perMarket);
      const strong = new Map<string, PolicyVerdict>();
      for (const [key, x] of all) {
        if (x.relation === "overlap" || x.relation === "disjoint") weak.add(key, x);
        else strong.set(key, x);
      }
      const options = { venueOf: venue, demote, weakPerMarket: perMarket };
      const expected = settleVerdicts(all, options);
      const got = settleVerdicts(new Map([...strong, ...weak.entries()]), options);
      expect(new Map([...got].sort(([x], [y]) => (x < y ? -1 : 1)))).toEqual(new Map([...expected].sort(([x], [y]) => (x < y ? -1 : 1))));
      // Held: at most perMarket a market, far fewer than every weak verdict.
      expect(weak.size).toBeLessThanOrEqual(80 * perMarket);
      expect(weak.size).toBeLessThan([...all.values()].filter((x) => x.relation === "overlap" || x.relation === "disjoint").length);
    }
  });
});
