import "server-only";
import { and, desc, eq, isNull, or } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { marketMatches } from "@/lib/db/schema/market-matches";
import { invertRelation, type Relation } from "./relations";

/**
 * Matching's query functions for one pair, for other folders (lib/matching owns `market_matches`:
 * docs/architecture.md, "Layers and folders"): spreads reads a pair's stored match, the demo keeps
 * its synthetic pair matched, spreads folds the closed days of the latest matches ahead.
 */

/** The current stored match of two markets, its relation read from A to B (null: none). */
export async function currentMatchOf(db: Db, a: string, b: string): Promise<{ relation: Relation; confidence: number } | null> {
  const [row] = await db
    .select({ marketA: marketMatches.marketA, relation: marketMatches.relation, confidence: marketMatches.confidence })
    .from(marketMatches)
    .where(and(isNull(marketMatches.validTo), or(and(eq(marketMatches.marketA, a), eq(marketMatches.marketB, b)), and(eq(marketMatches.marketA, b), eq(marketMatches.marketB, a)))))
    .limit(1);
  if (row === undefined) return null;
  const relation = row.relation as Relation;
  return { relation: row.marketA === a ? relation : invertRelation(relation), confidence: row.confidence };
}

export interface KeptMatch {
  /** The pair as stored: A < B. */
  marketA: string;
  marketB: string;
  relation: Relation;
  confidence: number;
  reasoning: string;
  engineVersion: string;
}

/** Stores `match` as current from `at`, unless a current match of the same A and B is stored already (then nothing changes). */
export async function keepCurrentMatch(db: Db, match: KeptMatch, at: Date): Promise<void> {
  const current = await db
    .select({ id: marketMatches.id })
    .from(marketMatches)
    .where(and(isNull(marketMatches.validTo), eq(marketMatches.marketA, match.marketA), eq(marketMatches.marketB, match.marketB)));
  if (current.length > 0) return;
  await db.insert(marketMatches).values({ ...match, firstSeenAt: at, lastConfirmedAt: at, validFrom: at });
}

/** The current matches, most recently confirmed first, at most `limit`: each as its two market ids as stored. */
export async function currentMatches(db: Db, limit: number): Promise<Array<[string, string]>> {
  const rows = await db
    .select({ marketA: marketMatches.marketA, marketB: marketMatches.marketB })
    .from(marketMatches)
    .where(isNull(marketMatches.validTo))
    .orderBy(desc(marketMatches.lastConfirmedAt), marketMatches.id)
    .limit(limit);
  return rows.map((row) => [row.marketA, row.marketB]);
}
