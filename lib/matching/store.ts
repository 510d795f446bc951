import "server-only";
/**
 * The matching engine's SQL, one home for it: what the engine reads from the catalog (markets whose
 * text changed, through the catalog's `marketTexts` subquery), what it keeps of each market (`match_features`), and its verdicts
 * (`market_matches`: a row per version of a pair's verdict, closed and reopened rather than
 * rewritten). The engine (engine.ts) orchestrates; only this module queries.
 */
import { and, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { marketTexts } from "@/lib/catalog/market-views";
import { marketMatches, marketSettlementFields, matchFeatures } from "@/lib/db/schema/market-matches";
import type { Difference } from "./compare/types";
import type { Features } from "./extract";
import type { Relation } from "./relations";

/** A verdict to store: the pair (A < B) and what the engine concluded. */
export interface StoredVerdict {
  a: string;
  b: string;
  relation: Relation;
  confidence: number;
  reasoning: string;
  differences: Difference[];
}

const BATCH = 1000;

/** The text the engine reads, from the catalog; any change to it (its `fingerprint`) re-reads the market. */
const texts = marketTexts();

export function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export const pairKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);

/** The text's fingerprint joined with the hash of the market's settlement fields: a change to either re-reads the market. */
const readFingerprint = sql<string>`case when ${marketSettlementFields.hash} is null then ${texts.fingerprint} else md5(${texts.fingerprint} || ${marketSettlementFields.hash}) end`;

/** Markets whose text (or settlement fields) changed since they were last read (all of them on a full run). */
export async function readChanged(db: Db, full: boolean, engineVersion: string) {
  const stale = or(isNull(matchFeatures.marketId), ne(matchFeatures.fingerprint, readFingerprint), ne(matchFeatures.engineVersion, engineVersion));
  return db
    .select({
      id: texts.id,
      venue: texts.venue,
      eventId: texts.eventId,
      category: texts.category,
      title: texts.title,
      eventTitle: texts.eventTitle,
      yesLabel: texts.yesLabel,
      description: texts.description,
      resolutionDate: texts.resolutionDate,
      tags: texts.tags,
      settlement: marketSettlementFields.fields,
      fingerprint: readFingerprint,
    })
    .from(texts)
    .leftJoin(marketSettlementFields, eq(marketSettlementFields.marketId, texts.id))
    .leftJoin(matchFeatures, eq(matchFeatures.marketId, texts.id))
    .where(full ? undefined : stale);
}

/** The rules of every market of `eventIds` (an incremental pass reads each re-read market's event's other brackets, `rangeOfRules`). */
export async function readEventRules(db: Db, eventIds: string[]): Promise<Array<{ id: string; venue: string; eventId: string; description: string | null }>> {
  const out: Array<{ id: string; venue: string; eventId: string; description: string | null }> = [];
  for (const batch of chunks(eventIds, BATCH)) {
    out.push(...(await db.select({ id: texts.id, venue: texts.venue, eventId: texts.eventId, description: texts.description }).from(texts).where(inArray(texts.eventId, batch))));
  }
  return out;
}

export async function storeFeatures(db: Db, rows: Array<{ features: Features; fingerprint: string }>, now: Date, engineVersion: string): Promise<void> {
  for (const batch of chunks(rows, BATCH)) {
    const json = JSON.stringify(
      batch.map((r) => ({
        market_id: r.features.id,
        venue: r.features.venue,
        fingerprint: r.fingerprint,
        keys: r.features.keys,
        features: r.features,
        engine_version: engineVersion,
        updated_at: now.toISOString(),
      })),
    );
    await db.execute(sql`
      insert into match_features (market_id, venue, fingerprint, keys, features, engine_version, updated_at)
      select market_id, venue, fingerprint, keys, features, engine_version, updated_at
      from jsonb_to_recordset(${json}::jsonb) as r(market_id uuid, venue text, fingerprint text, keys text[], features jsonb, engine_version text, updated_at timestamptz)
      on conflict (market_id) do update set venue = excluded.venue, fingerprint = excluded.fingerprint, keys = excluded.keys,
        features = excluded.features, engine_version = excluded.engine_version, updated_at = excluded.updated_at`);
  }
}

export async function loadFeatures(db: Db, ids: string[]): Promise<Map<string, Features>> {
  const out = new Map<string, Features>();
  for (const batch of chunks(ids, BATCH)) {
    const rows = await db.select({ id: matchFeatures.marketId, features: matchFeatures.features }).from(matchFeatures).where(inArray(matchFeatures.marketId, batch));
    for (const row of rows) out.set(row.id, row.features as Features);
  }
  return out;
}

/** Current matches involving any of `ids`. */
export async function currentMatches(db: Db, ids: string[]) {
  const out = new Map<string, typeof marketMatches.$inferSelect>();
  for (const batch of chunks(ids, BATCH)) {
    const rows = await db
      .select()
      .from(marketMatches)
      .where(and(isNull(marketMatches.validTo), or(inArray(marketMatches.marketA, batch), inArray(marketMatches.marketB, batch))));
    for (const row of rows) out.set(pairKey(row.marketA, row.marketB), row);
  }
  return out;
}

/** The same verdict: relation and engine unchanged, confidence within 0.02 (corpus statistics drift). */
function sameVerdict(row: typeof marketMatches.$inferSelect, v: StoredVerdict, engineVersion: string): boolean {
  return row.relation === v.relation && row.engineVersion === engineVersion && Math.abs(row.confidence - v.confidence) < 0.02;
}

/**
 * Writes the verdicts about `scope` markets: unchanged ones are confirmed, changed ones closed
 * and reopened (first_seen carried over), vanished ones closed. Nothing is rewritten in place
 * except `last_confirmed_at`.
 */
export async function reconcile(db: Db, scope: string[], verdicts: Map<string, StoredVerdict>, now: Date, engineVersion: string) {
  const existing = await currentMatches(db, scope);
  const confirm: string[] = [];
  const close: string[] = [];
  // Each verdict to open with its first sighting (the verdict itself, not a copy of it).
  const open: Array<{ v: StoredVerdict; firstSeenAt: Date }> = [];
  for (const [key, v] of verdicts) {
    const row = existing.get(key);
    if (row === undefined) open.push({ v, firstSeenAt: now });
    else if (sameVerdict(row, v, engineVersion)) confirm.push(row.id);
    else {
      close.push(row.id);
      open.push({ v, firstSeenAt: row.firstSeenAt });
    }
  }
  for (const [key, row] of existing) if (!verdicts.has(key)) close.push(row.id);

  await db.transaction(async (tx) => {
    for (const batch of chunks(close, BATCH)) {
      await tx.update(marketMatches).set({ validTo: now }).where(inArray(marketMatches.id, batch));
    }
    for (const batch of chunks(confirm, BATCH)) {
      await tx.update(marketMatches).set({ lastConfirmedAt: now }).where(inArray(marketMatches.id, batch));
    }
    for (const batch of chunks(open, BATCH)) {
      const json = JSON.stringify(
        batch.map(({ v, firstSeenAt }) => ({
          market_a: v.a,
          market_b: v.b,
          relation: v.relation,
          confidence: v.confidence,
          reasoning: v.reasoning,
          differences: v.differences,
          engine_version: engineVersion,
          first_seen_at: firstSeenAt.toISOString(),
          at: now.toISOString(),
        })),
      );
      await tx.execute(sql`
        insert into market_matches (market_a, market_b, relation, confidence, reasoning, differences, engine_version, first_seen_at, last_confirmed_at, valid_from)
        select market_a, market_b, relation, confidence, reasoning, differences, engine_version, first_seen_at, at, at
        from jsonb_to_recordset(${json}::jsonb) as r(market_a uuid, market_b uuid, relation text, confidence float8, reasoning text, differences jsonb, engine_version text, first_seen_at timestamptz, at timestamptz)`);
    }
  });
  return { opened: open.length, confirmed: confirm.length, closed: close.length };
}

export interface FeaturesState {
  count: number;
  updatedAt: string | null;
}

/** A cheap summary of match_features: when it moved without this process, the cached index is stale. */
export async function featuresState(db: Db): Promise<FeaturesState> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int`, updatedAt: sql<string | null>`max(${matchFeatures.updatedAt})::text` })
    .from(matchFeatures);
  return { count: row?.count ?? 0, updatedAt: row?.updatedAt ?? null };
}

/** Every market's candidate keys, to rebuild the candidate index. */
export async function indexEntries(db: Db): Promise<Array<{ id: string; venue: string; keys: string[] }>> {
  return db.select({ id: matchFeatures.marketId, venue: matchFeatures.venue, keys: matchFeatures.keys }).from(matchFeatures);
}
