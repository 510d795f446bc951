import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import { describedMarkets } from "@/lib/catalog/market-reads";
import type { Db } from "@/lib/db";
import { marketMatches } from "@/lib/db/schema/market-matches";
import { currentOutcomes, outcomeKey } from "@/lib/outcomes/store";
import type { CurrentOutcome } from "@/lib/outcomes/types";

/**
 * Outcomes audit the identity pairs (docs/matching.md, "Outcomes audit the pairs"): an identity
 * claims that the two markets pay on the same event, so once both have resolved their Yes must
 * have settled alike. A pair whose two markets resolved differently is a proven false identity:
 * named on the matching answers (Compare, the market panel), counted on /v0/status, and listed
 * by `provenFalseIdentities` as a labelled negative the matching fit and the review queue read.
 */

/** What one side's Yes settled at: 1, 0, a split's value; null while not resolved (or voided). */
export function yesSettlement(outcome: Pick<CurrentOutcome, "state" | "outcomeIds" | "winningOutcomeId" | "settlementValue"> | undefined): number | null {
  if (outcome === undefined || (outcome.state !== "determined" && outcome.state !== "settled")) return null;
  if (outcome.settlementValue !== null) return outcome.settlementValue;
  if (outcome.winningOutcomeId === null) return null;
  return outcome.winningOutcomeId === outcome.outcomeIds[0] ? 1 : 0;
}

export type PairVerdict = "agreed" | "disagreed" | "unresolved";

/** Both sides' settlements and what they say about the identity. */
export interface PairOutcomes {
  verdict: PairVerdict;
  /** Yes settlement of the pair's first market as the answer orients it; null while unresolved. */
  a: number | null;
  b: number | null;
}

export function pairVerdict(a: number | null, b: number | null): PairVerdict {
  if (a === null || b === null) return "unresolved";
  return Math.abs(a - b) < 1e-9 ? "agreed" : "disagreed";
}

/** One market of a pair, as the audit names it. */
export interface AuditedMarket {
  marketId: string;
  venue: string;
  venueMarketId: string;
  title: string;
  /** The books key the outcome is recorded under (Polymarket condition id, Kalshi ticker); null before any outcome. */
  market: string | null;
  settlement: number | null;
  closedAt: Date | null;
  resolvedAt: Date | null;
}

export interface AuditedPair {
  matchId: string;
  a: AuditedMarket;
  b: AuditedMarket;
  confidence: number;
  engineVersion: string;
  verdict: PairVerdict;
}

/** Current outcomes of catalog markets, by catalog id. */
async function outcomesOfMarkets(db: Db, ids: readonly string[]): Promise<Map<string, { row: { id: string; venue: string; venueMarketId: string; title: string }; outcome: CurrentOutcome | undefined }>> {
  const out = new Map<string, { row: { id: string; venue: string; venueMarketId: string; title: string }; outcome: CurrentOutcome | undefined }>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 1000) {
    const rows = (await describedMarkets(db, unique.slice(i, i + 1000))).map(({ id, venue, venueMarketId, title }) => ({ id, venue, venueMarketId, title }));
    const outcomes = await currentOutcomes(db, rows);
    for (const row of rows) out.set(row.id, { row, outcome: outcomes.get(outcomeKey(row.venue, row.venueMarketId)) });
  }
  return out;
}

/** The two sides' settlements of each pair (ids as the caller orients them), keyed `${a}:${b}`. */
export async function outcomesOfPairs(db: Db, pairs: ReadonlyArray<readonly [string, string]>): Promise<Map<string, PairOutcomes>> {
  const found = await outcomesOfMarkets(db, pairs.flat());
  const out = new Map<string, PairOutcomes>();
  for (const [a, b] of pairs) {
    const sa = yesSettlement(found.get(a)?.outcome);
    const sb = yesSettlement(found.get(b)?.outcome);
    out.set(`${a}:${b}`, { verdict: pairVerdict(sa, sb), a: sa, b: sb });
  }
  return out;
}

/**
 * The current identity pairs (optionally only those touching `venues`), each with both markets'
 * settlements and the verdict. The matching engine's own read of its stored verdicts.
 */
export async function auditIdentityPairs(db: Db, options: { venues?: readonly string[] } = {}): Promise<AuditedPair[]> {
  const rows = await db
    .select({ id: marketMatches.id, a: marketMatches.marketA, b: marketMatches.marketB, confidence: marketMatches.confidence, engineVersion: marketMatches.engineVersion })
    .from(marketMatches)
    .where(and(isNull(marketMatches.validTo), eq(marketMatches.relation, "identity")));
  const found = await outcomesOfMarkets(db, rows.flatMap((r) => [r.a, r.b]));
  const side = (id: string): AuditedMarket | undefined => {
    const entry = found.get(id);
    if (entry === undefined) return undefined;
    const { row, outcome } = entry;
    return {
      marketId: row.id,
      venue: row.venue,
      venueMarketId: row.venueMarketId,
      title: row.title,
      market: outcome?.market ?? null,
      settlement: yesSettlement(outcome),
      closedAt: outcome?.closedAt ?? null,
      resolvedAt: outcome?.determinedAt ?? outcome?.settledAt ?? null,
    };
  };
  const venues = options.venues === undefined ? undefined : new Set(options.venues);
  const out: AuditedPair[] = [];
  for (const row of rows) {
    const a = side(row.a);
    const b = side(row.b);
    if (a === undefined || b === undefined) continue;
    if (venues !== undefined && !venues.has(a.venue) && !venues.has(b.venue)) continue;
    out.push({ matchId: row.id, a, b, confidence: row.confidence, engineVersion: row.engineVersion, verdict: pairVerdict(a.settlement, b.settlement) });
  }
  return out;
}

/** /v0/status's count: identity pairs both of whose markets resolved, and those that resolved differently. */
export async function identityPairOutcomeCounts(db: Db): Promise<{ resolved: number; disagreed: number }> {
  const pairs = await auditIdentityPairs(db);
  return { resolved: pairs.filter((p) => p.verdict !== "unresolved").length, disagreed: pairs.filter((p) => p.verdict === "disagreed").length };
}

/**
 * A labelled negative for the fit and the review queue: the pair is not an identity, proven by
 * how the venues settled it. `label` is what a reviewer's reject would store.
 */
export interface ProvenNegative {
  marketA: string;
  marketB: string;
  label: "not_identity";
  reason: "resolved_differently";
  /** Both sides' Yes settlements as the venues stated them, A first. */
  settlements: [number, number];
  /** When the later of the two resolved: the instant the proof became known. */
  provenAt: string | null;
  /** The engine verdict it refutes. */
  matchId: string;
  confidence: number;
  engineVersion: string;
}

/**
 * Every proven false identity, oldest proof first: the identity pairs whose two markets resolved
 * differently. Read by the matching fit as labels (`not_identity`) and by the review queue as
 * pairs that arrive already rejected, with the proof as the reason.
 */
export async function provenFalseIdentities(db: Db): Promise<ProvenNegative[]> {
  const pairs = (await auditIdentityPairs(db)).filter((p) => p.verdict === "disagreed");
  const proven = (p: AuditedPair) => {
    const times = [p.a.resolvedAt, p.b.resolvedAt].filter((t): t is Date => t !== null).map((t) => t.getTime());
    return times.length === 0 ? null : new Date(Math.max(...times)).toISOString();
  };
  return pairs
    .map((p) => ({
      marketA: p.a.marketId,
      marketB: p.b.marketId,
      label: "not_identity" as const,
      reason: "resolved_differently" as const,
      settlements: [p.a.settlement ?? 0, p.b.settlement ?? 0] as [number, number],
      provenAt: proven(p),
      matchId: p.matchId,
      confidence: p.confidence,
      engineVersion: p.engineVersion,
    }))
    .sort((x, y) => (x.provenAt ?? "").localeCompare(y.provenAt ?? "") || x.matchId.localeCompare(y.matchId));
}
