import { describe, expect, it } from "vitest";
import { ambiguousIdentities, prunedWeak, settleVerdicts, type PolicyVerdict } from "./policy";

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
});
