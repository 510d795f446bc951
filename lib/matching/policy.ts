/**
 * Which verdicts of a pass are kept, as a pure function of the verdicts: the ambiguity policy (one
 * question is listed once per venue, so a market identical to two markets of the same other venue
 * is ambiguous and neither pair stays an identity) and the pruning policy (every identity and
 * nesting is kept; of the weaker "related" verdicts each market keeps its strongest few).
 */
import type { Relation } from "./relations";

/** What the policy reads of a verdict. */
export interface PolicyVerdict {
  a: string;
  b: string;
  relation: Relation;
  confidence: number;
}

export interface PolicyOptions<V extends PolicyVerdict> {
  /** The venue of a market id. */
  venueOf: (id: string) => string | undefined;
  /** An ambiguous identity as the verdict it becomes (an overlap): `others` is how many other markets it reads the same as. */
  demote: (v: V, others: number) => V;
  /** Overlap/disjoint verdicts kept per market (the strongest). */
  weakPerMarket: number;
}

/**
 * The identities that are ambiguous, each with how many other markets of the same venue one of its
 * two markets reads the same as (the largest such count, in pass order).
 */
export function ambiguousIdentities<V extends PolicyVerdict>(verdicts: Iterable<[string, V]>, venueOf: (id: string) => string | undefined): Map<string, number> {
  const identitiesOf = new Map<string, string[]>();
  for (const [key, v] of verdicts) {
    if (v.relation !== "identity") continue;
    for (const [id, other] of [
      [v.a, v.b],
      [v.b, v.a],
    ] as const) {
      const k = `${id}|${venueOf(other) ?? ""}`;
      identitiesOf.set(k, [...(identitiesOf.get(k) ?? []), key]);
    }
  }
  const out = new Map<string, number>();
  for (const list of identitiesOf.values()) {
    if (list.length < 2) continue;
    // A verdict demoted once keeps the count of the first list that demoted it.
    for (const key of list) if (!out.has(key)) out.set(key, list.length - 1);
  }
  return out;
}

/** The weak (overlap, disjoint) verdicts no market keeps among its strongest `perMarket`. */
export function prunedWeak<V extends PolicyVerdict>(verdicts: Iterable<[string, V]>, perMarket: number): Set<string> {
  const weakPerMarket = new Map<string, Array<[string, V]>>();
  const weak: string[] = [];
  for (const [key, v] of verdicts) {
    if (v.relation !== "overlap" && v.relation !== "disjoint") continue;
    weak.push(key);
    for (const id of [v.a, v.b]) weakPerMarket.set(id, [...(weakPerMarket.get(id) ?? []), [key, v]]);
  }
  const keep = new Set<string>();
  for (const list of weakPerMarket.values()) {
    list.sort(([, x], [, y]) => y.confidence - x.confidence || (x.a + x.b < y.a + y.b ? -1 : 1));
    for (const [key] of list.slice(0, perMarket)) keep.add(key);
  }
  return new Set(weak.filter((key) => !keep.has(key)));
}

/** The verdicts a pass keeps, ambiguous identities demoted (a new map; the input is not changed). */
export function settleVerdicts<V extends PolicyVerdict>(verdicts: ReadonlyMap<string, V>, options: PolicyOptions<V>): Map<string, V> {
  const ambiguous = ambiguousIdentities(verdicts, options.venueOf);
  const settled = new Map<string, V>();
  for (const [key, v] of verdicts) {
    const others = ambiguous.get(key);
    settled.set(key, others === undefined ? v : options.demote(v, others));
  }
  const dropped = prunedWeak(settled, options.weakPerMarket);
  for (const key of dropped) settled.delete(key);
  return settled;
}
