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

/** The weak verdicts' order in `prunedWeak`: stronger first, then by the pair's ids. */
const weakOrder = (x: PolicyVerdict, y: PolicyVerdict) => y.confidence - x.confidence || (x.a + x.b < y.a + y.b ? -1 : 1);

/**
 * A pass's weak (overlap, disjoint) verdicts, collected as the pass finds them, holding only those
 * that can still be among a market's strongest `perMarket`. A weak verdict that is outside both its
 * markets' strongest is pruned by `prunedWeak` whatever the pass finds later (later verdicts only add
 * competition), so it is let go at once: a full pass then holds a few weak verdicts a market instead
 * of every compared pair's. What it holds is a superset of what `settleVerdicts` keeps of them, and
 * `settleVerdicts` over it keeps exactly what it keeps over every weak verdict.
 */
export class WeakVerdicts<V extends PolicyVerdict> {
  /** Per market, its strongest weak verdicts so far, strongest first (at most `perMarket`). */
  private readonly top = new Map<string, Array<[string, V]>>();
  /** Each held verdict, with how many of its two markets hold it among their strongest. */
  private readonly held = new Map<string, { v: V; count: number }>();

  constructor(private readonly perMarket: number) {}

  add(key: string, v: V): void {
    const cell = { v, count: 0 };
    this.held.set(key, cell);
    for (const id of [v.a, v.b]) {
      const list = this.top.get(id) ?? [];
      let at = list.length;
      while (at > 0 && weakOrder(v, (list[at - 1] as [string, V])[1]) < 0) at -= 1;
      if (at >= this.perMarket) continue;
      list.splice(at, 0, [key, v]);
      cell.count += 1;
      if (list.length > this.perMarket) {
        const [evicted] = list.pop() as [string, V];
        const other = this.held.get(evicted);
        if (other !== undefined && --other.count === 0) this.held.delete(evicted);
      }
      this.top.set(id, list);
    }
    if (cell.count === 0) this.held.delete(key);
  }

  get size(): number {
    return this.held.size;
  }

  *entries(): IterableIterator<[string, V]> {
    for (const [key, cell] of this.held) yield [key, cell.v];
  }
}
