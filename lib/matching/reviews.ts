import "server-only";
/**
 * The verified tier: operators' reviews of matched pairs (docs/matching.md, "Review queue").
 *
 * - The queue: every pair waiting for a review: proposed ones first (pairs whose two markets
 *   resolved differently, `proposeRejections`), then every current identity not yet reviewed, then
 *   candidate pairs in the uncertain band (an overlap whose reasoning carries the identity
 *   decision's fitted chance just below its threshold, or an identity below `UNCERTAIN_HIGH`).
 * - A review: confirmed or rejected, with a reason, who and when; the latest review of a pair wins.
 * - Export and import as JSON Lines, keyed by the venues' own market ids (portable between stores).
 * - `verifiedPairs`: the confirmed pairs among given ones, served as `verified: true`.
 */
import { and, desc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { z } from "zod";
import { describedMarkets, marketIdsOnVenue } from "@/lib/catalog/market-reads";
import { marketKeys } from "@/lib/catalog/market-views";
import type { Db } from "@/lib/db";
import { marketMatches, matchReviews } from "@/lib/db/schema/market-matches";
import { AppError } from "@/lib/errors";
import { provenFalseIdentities } from "./outcome-audit";
import { relations, type Relation } from "./relations";
import { pairKey } from "./store";

/** Identities below this fitted chance, and overlaps at or above `UNCERTAIN_LOW`, are the uncertain band. */
export const UNCERTAIN_HIGH = 0.9;
export const UNCERTAIN_LOW = 0.5;

export const reviewVerdicts = ["confirmed", "rejected"] as const;
export type ReviewVerdict = (typeof reviewVerdicts)[number];

export interface QueueSide {
  id: string;
  venue: string;
  venueMarketId: string;
  title: string;
  rules: string | null;
  resolutionDate: string | null;
}

export interface QueueItem {
  /** `<market_a>|<market_b>` (A < B). */
  pair: string;
  a: QueueSide;
  b: QueueSide;
  relation: Relation;
  confidence: number | null;
  reasoning: string;
  differences: unknown[];
  /** Why it is in the queue. */
  why: "proposed" | "unreviewed identity" | "uncertain";
  proposed: { verdict: string; reason: string; source: string } | null;
}

const ordered = (x: string, y: string): [string, string] => (x < y ? [x, y] : [y, x]);

async function sides(db: Db, ids: string[]): Promise<Map<string, QueueSide>> {
  const out = new Map<string, QueueSide>();
  if (ids.length === 0) return out;
  for (const { description, ...r } of await describedMarkets(db, ids)) {
    out.set(r.id, { ...r, rules: description, resolutionDate: r.resolutionDate === null ? null : new Date(r.resolutionDate).toISOString() });
  }
  return out;
}

/** The pairs waiting for a review, proposed ones first, at most `limit`. */
export async function reviewQueue(db: Db, limit = 50): Promise<QueueItem[]> {
  const pending = await db.select().from(matchReviews).where(isNull(matchReviews.verdict)).orderBy(matchReviews.createdAt).limit(limit);
  const reviewed = alias(matchReviews, "reviewed");
  const current = await db
    .select({ a: marketMatches.marketA, b: marketMatches.marketB, relation: marketMatches.relation, confidence: marketMatches.confidence, reasoning: marketMatches.reasoning, differences: marketMatches.differences })
    .from(marketMatches)
    .leftJoin(reviewed, and(eq(reviewed.marketA, marketMatches.marketA), eq(reviewed.marketB, marketMatches.marketB)))
    .where(
      and(
        isNull(marketMatches.validTo),
        isNull(reviewed.id),
        or(eq(marketMatches.relation, "identity"), and(eq(marketMatches.relation, "overlap"), sql`${marketMatches.confidence} >= ${UNCERTAIN_LOW}`, sql`${marketMatches.reasoning} like '%fitted chance%'`)),
      ),
    )
    .orderBy(sql`case when ${marketMatches.relation} = 'identity' then 0 else 1 end`, desc(marketMatches.confidence))
    .limit(limit);
  const verdictOf = new Map(current.map((c) => [pairKey(c.a, c.b), c]));
  const pendingVerdicts = await matchesOfPairs(db, pending.map((p) => [p.marketA, p.marketB]));
  const all = await sides(db, [...pending.flatMap((p) => [p.marketA, p.marketB]), ...current.flatMap((c) => [c.a, c.b])]);
  const items: QueueItem[] = [];
  const push = (a: string, b: string, base: Omit<QueueItem, "pair" | "a" | "b">) => {
    const sa = all.get(a);
    const sb = all.get(b);
    if (sa !== undefined && sb !== undefined && items.length < limit) items.push({ pair: pairKey(a, b), a: sa, b: sb, ...base });
  };
  for (const p of pending) {
    const v = pendingVerdicts.get(pairKey(p.marketA, p.marketB)) ?? verdictOf.get(pairKey(p.marketA, p.marketB));
    push(p.marketA, p.marketB, {
      relation: (v?.relation ?? p.relation) as Relation,
      confidence: v?.confidence ?? null,
      reasoning: v?.reasoning ?? "",
      differences: (v?.differences as unknown[] | undefined) ?? [],
      why: "proposed",
      proposed: { verdict: p.proposed ?? "rejected", reason: p.reason, source: p.source },
    });
  }
  for (const c of current) {
    if (items.some((i) => i.pair === pairKey(c.a, c.b))) continue;
    push(c.a, c.b, { relation: c.relation as Relation, confidence: c.confidence, reasoning: c.reasoning, differences: c.differences as unknown[], why: c.relation === "identity" && c.confidence >= UNCERTAIN_HIGH ? "unreviewed identity" : "uncertain", proposed: null });
  }
  return items;
}

async function matchesOfPairs(db: Db, pairs: Array<[string, string]>) {
  const out = new Map<string, { relation: string; confidence: number; reasoning: string; differences: unknown }>();
  if (pairs.length === 0) return out;
  const rows = await db
    .select({ a: marketMatches.marketA, b: marketMatches.marketB, relation: marketMatches.relation, confidence: marketMatches.confidence, reasoning: marketMatches.reasoning, differences: marketMatches.differences })
    .from(marketMatches)
    .where(and(isNull(marketMatches.validTo), inArray(marketMatches.marketA, pairs.map((p) => p[0]))));
  const wanted = new Set(pairs.map(([a, b]) => pairKey(a, b)));
  for (const r of rows) if (wanted.has(pairKey(r.a, r.b))) out.set(pairKey(r.a, r.b), r);
  return out;
}

export interface ReviewInput {
  marketA: string;
  marketB: string;
  verdict: ReviewVerdict;
  reason: string;
  reviewer: string;
  /** The relation confirmed (or the one rejected), from marketA to marketB; default: the current verdict's, else identity. */
  relation?: Relation;
  at?: Date;
  source?: "operator" | "import";
}

/** Stores a review of a pair (the latest review of a pair wins). */
export async function reviewPair(db: Db, input: ReviewInput): Promise<void> {
  if (input.marketA === input.marketB) throw new AppError("invalid_parameter", "A pair is two different markets.");
  const [a, b] = ordered(input.marketA, input.marketB);
  const flipped = a !== input.marketA;
  const current = (await matchesOfPairs(db, [[a, b]])).get(pairKey(a, b));
  const stated = input.relation === undefined ? undefined : flipped ? invert(input.relation) : input.relation;
  const relation = stated ?? (current?.relation as Relation | undefined) ?? "identity";
  const at = input.at ?? new Date();
  const row = { marketA: a, marketB: b, verdict: input.verdict, proposed: null, relation, reason: input.reason.trim().slice(0, 500), reviewer: input.reviewer, reviewedAt: at, source: input.source ?? "operator" };
  await db
    .insert(matchReviews)
    .values(row)
    .onConflictDoUpdate({ target: [matchReviews.marketA, matchReviews.marketB], set: { verdict: row.verdict, proposed: null, relation: row.relation, reason: row.reason, reviewer: row.reviewer, reviewedAt: row.reviewedAt, source: row.source } });
}

const inverse: Record<Relation, Relation> = { identity: "identity", subset: "superset", superset: "subset", overlap: "overlap", disjoint: "disjoint" };
const invert = (r: Relation) => inverse[r];

/**
 * Proven negatives: identity pairs whose two markets resolved differently (the outcomes audit) arrive
 * in the queue as proposed rejections, with the reason given. A pair already reviewed keeps its
 * review; a pair already waiting is not added twice. Returns how many were added.
 */
export async function proposeRejections(db: Db, pairs: Array<{ marketA: string; marketB: string; reason: string }>, source = "outcomes"): Promise<number> {
  let added = 0;
  for (const p of pairs) {
    if (p.marketA === p.marketB) continue;
    const [a, b] = ordered(p.marketA, p.marketB);
    const rows = await db
      .insert(matchReviews)
      .values({ marketA: a, marketB: b, verdict: null, proposed: "rejected", relation: "identity", reason: p.reason.slice(0, 500), source })
      .onConflictDoNothing()
      .returning({ id: matchReviews.id });
    added += rows.length;
  }
  return added;
}

/** A proven false identity as the outcomes audit lists it (its `provenFalseIdentities`): the pair and both Yes settlements, A first. */
export interface ProvenNegativeInput {
  marketA: string;
  marketB: string;
  settlements: [number, number];
  provenAt: string | null;
}

/**
 * The hook for the outcomes audit: every proven false identity (two markets that resolved
 * differently) arrives in the queue as a proposed rejection whose reason states the proof. Call it
 * with the audit's list (`queueProvenNegatives(db, await provenFalseIdentities(db))`) after outcomes
 * are read; pairs already reviewed or already waiting are left as they are.
 */
export async function queueProvenNegatives(db: Db, negatives: readonly ProvenNegativeInput[]): Promise<number> {
  return proposeRejections(
    db,
    negatives.map((n) => ({
      marketA: n.marketA,
      marketB: n.marketB,
      reason: `resolved differently: Yes settled at ${n.settlements[0]} on one market and ${n.settlements[1]} on the other${n.provenAt === null ? "" : ` (known ${n.provenAt.slice(0, 10)})`}`,
    })),
    "outcomes",
  );
}

/**
 * After a catalog poll (whose resolutions the audit reads): every identity whose two markets now
 * resolved differently arrives in the queue as a proposed rejection. Returns how many were added.
 */
export async function queueOutcomeRejections(db: Db): Promise<number> {
  return queueProvenNegatives(db, await provenFalseIdentities(db));
}

/** The pairs among `pairs` an operator confirmed with the relation now stated (served as `verified: true`). */
export async function verifiedPairs(db: Db, pairs: Array<{ a: string; b: string; relation: string }>): Promise<Set<string>> {
  const out = new Set<string>();
  if (pairs.length === 0) return out;
  const ids = [...new Set(pairs.map((p) => (p.a < p.b ? p.a : p.b)))];
  const relationOf = new Map(pairs.map((p) => [pairKey(p.a, p.b), p.a < p.b ? p.relation : invert(p.relation as Relation)]));
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await db
      .select({ a: matchReviews.marketA, b: matchReviews.marketB, relation: matchReviews.relation })
      .from(matchReviews)
      .where(and(eq(matchReviews.verdict, "confirmed"), inArray(matchReviews.marketA, ids.slice(i, i + 1000))));
    for (const r of rows) if (relationOf.get(pairKey(r.a, r.b)) === r.relation) out.add(pairKey(r.a, r.b));
  }
  return out;
}

/** One line of the JSON Lines export: the pair by the venues' own ids, so it imports into any store. */
export const reviewLine = z.object({
  a: z.object({ venue: z.string().min(1), venueMarketId: z.string().min(1) }),
  b: z.object({ venue: z.string().min(1), venueMarketId: z.string().min(1) }),
  verdict: z.enum(reviewVerdicts),
  relation: z.enum(relations),
  reason: z.string().max(500),
  reviewer: z.string().min(1).max(200),
  reviewedAt: z.iso.datetime({ offset: true }),
  /** A rejection proposed by the outcomes audit (a proven negative), waiting for a person: `reviewer` is its source. */
  proposed: z.literal(true).optional(),
});
export type ReviewLine = z.infer<typeof reviewLine>;

/**
 * Every review as JSON Lines, oldest first, then the rejections proposed by the outcomes audit that
 * still wait (proven negatives: two markets that resolved differently), marked `proposed: true`: the
 * fit reads both as labels (`npm run matching:fit` with MATCHING_REVIEWS), and an import keeps a
 * proposal a proposal.
 */
export async function exportReviews(db: Db): Promise<string> {
  const ma = marketKeys("ma");
  const mb = marketKeys("mb");
  const rows = await db
    .select({ aVenue: ma.venue, aId: ma.venueMarketId, bVenue: mb.venue, bId: mb.venueMarketId, verdict: matchReviews.verdict, relation: matchReviews.relation, reason: matchReviews.reason, reviewer: matchReviews.reviewer, reviewedAt: matchReviews.reviewedAt })
    .from(matchReviews)
    .innerJoin(ma, eq(ma.id, matchReviews.marketA))
    .innerJoin(mb, eq(mb.id, matchReviews.marketB))
    .where(sql`${matchReviews.verdict} is not null`)
    .orderBy(matchReviews.reviewedAt, matchReviews.id);
  const proposals = await db
    .select({ aVenue: ma.venue, aId: ma.venueMarketId, bVenue: mb.venue, bId: mb.venueMarketId, proposed: matchReviews.proposed, relation: matchReviews.relation, reason: matchReviews.reason, source: matchReviews.source, createdAt: matchReviews.createdAt })
    .from(matchReviews)
    .innerJoin(ma, eq(ma.id, matchReviews.marketA))
    .innerJoin(mb, eq(mb.id, matchReviews.marketB))
    .where(and(isNull(matchReviews.verdict), eq(matchReviews.proposed, "rejected")))
    .orderBy(matchReviews.createdAt, matchReviews.id);
  const lines: ReviewLine[] = [
    ...rows.map((r) => ({
      a: { venue: r.aVenue, venueMarketId: r.aId },
      b: { venue: r.bVenue, venueMarketId: r.bId },
      verdict: r.verdict as ReviewVerdict,
      relation: r.relation as Relation,
      reason: r.reason,
      reviewer: r.reviewer ?? "",
      reviewedAt: r.reviewedAt === null ? "" : new Date(r.reviewedAt).toISOString(),
    })),
    ...proposals.map((r) => ({
      a: { venue: r.aVenue, venueMarketId: r.aId },
      b: { venue: r.bVenue, venueMarketId: r.bId },
      verdict: "rejected" as const,
      relation: r.relation as Relation,
      reason: r.reason,
      reviewer: r.source,
      reviewedAt: new Date(r.createdAt).toISOString(),
      proposed: true as const,
    })),
  ];
  return lines.map((line) => `${JSON.stringify(line)}\n`).join("");
}

export interface ImportSummary {
  imported: number;
  /** Lines whose markets are not in this store. */
  unknownMarkets: number;
}

/**
 * Imports reviews from JSON Lines (the export's format). Every line is validated before anything is
 * written: a malformed line is a 400 naming its line number. A line whose markets this store does
 * not list is counted and skipped.
 */
export async function importReviews(db: Db, text: string, importer: string): Promise<ImportSummary> {
  const lines: ReviewLine[] = [];
  const raw = text.split("\n");
  for (const [i, line] of raw.entries()) {
    if (line.trim() === "") continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new AppError("invalid_parameter", `Line ${i + 1} is not JSON.`);
    }
    const parsed = reviewLine.safeParse(json);
    if (!parsed.success) throw new AppError("invalid_parameter", `Line ${i + 1} is not a review: ${parsed.error.issues[0]?.path.join(".") ?? ""} ${parsed.error.issues[0]?.message ?? ""}`.trim());
    lines.push(parsed.data);
  }
  const idOf = new Map<string, string>();
  const refs = lines.flatMap((l) => [l.a, l.b]);
  for (const venue of [...new Set(refs.map((r) => r.venue))]) {
    const ids = [...new Set(refs.filter((r) => r.venue === venue).map((r) => r.venueMarketId))];
    for (let i = 0; i < ids.length; i += 1000) {
      for (const r of await marketIdsOnVenue(db, venue, ids.slice(i, i + 1000))) idOf.set(`${venue}:${r.venueMarketId}`, r.id);
    }
  }
  const summary: ImportSummary = { imported: 0, unknownMarkets: 0 };
  for (const l of lines) {
    const a = idOf.get(`${l.a.venue}:${l.a.venueMarketId}`);
    const b = idOf.get(`${l.b.venue}:${l.b.venueMarketId}`);
    if (a === undefined || b === undefined) {
      summary.unknownMarkets += 1;
      continue;
    }
    if (l.proposed === true) {
      // A proven negative still waiting for a person stays a proposal (a pair already reviewed keeps its review).
      await proposeRejections(db, [{ marketA: a, marketB: b, reason: l.reason }], l.reviewer === "outcomes" ? "outcomes" : "import");
      summary.imported += 1;
      continue;
    }
    const reviewer = l.reviewer.startsWith("import:") ? l.reviewer : `${l.reviewer} (imported by ${importer})`;
    await reviewPair(db, { marketA: a, marketB: b, verdict: l.verdict, reason: l.reason, reviewer, relation: l.relation, at: new Date(l.reviewedAt), source: "import" });
    summary.imported += 1;
  }
  return summary;
}
