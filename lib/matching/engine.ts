import "server-only";
import { and, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { events } from "@/lib/db/schema/events";
import { marketMatches, matchFeatures } from "@/lib/db/schema/market-matches";
import { markets } from "@/lib/db/schema/markets";
import { errorFields, log } from "@/lib/log";
import { CandidateIndex } from "./candidates";
import { classifyPair, type PairResult } from "./classify";
import { calibrated } from "./confidence";
import { extractFeatures, type Features } from "./extract";
import { settleVerdicts } from "./policy";
import { renderReasoning } from "./reasoning";

/** Bumped whenever extraction or classification changes what it concludes. */
export const ENGINE_VERSION = "brier-match-8";

export interface MatchProgress {
  phase: "reading" | "extracting" | "indexing" | "matching" | "storing" | "done";
  done: number;
  total?: number;
}

export interface MatchRunOptions {
  /** Re-read every market, not only new and changed ones. */
  full?: boolean;
  onProgress?: (p: MatchProgress) => void;
  /** The run's timestamp (tests). */
  now?: Date;
  /** Candidates compared per market (default 12). */
  candidatesPerMarket?: number;
}

export interface MatchRunSummary {
  mode: "full" | "incremental";
  engineVersion: string;
  marketsIndexed: number;
  marketsRead: number;
  pairsCompared: number;
  matchesFound: number;
  opened: number;
  confirmed: number;
  closed: number;
  durationMs: number;
}

const BATCH = 1000;

/** Overlap/disjoint verdicts kept per market (the strongest). */
const WEAK_PER_MARKET = 4;

/** The text the engine reads; any change to it re-reads the market. */
const fingerprintSql = sql<string>`md5(concat_ws(chr(31), ${markets.title}, ${events.title}, ${markets.outcomes}->0->>'label', ${markets.description}, ${markets.resolutionDate}::text, ${markets.closed}::text))`;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const pairKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);

interface Verdict extends PairResult {
  a: string;
  b: string;
}

/** An identity that is ambiguous (one side reads the same as `others` more markets of the other venue), as the overlap it becomes. */
function demoteAmbiguous(v: Verdict, others: number): Verdict {
  const tail = { kind: "ambiguous", others } as const;
  return {
    ...v,
    relation: "overlap",
    confidence: calibrated("overlap", v.evidence),
    tail,
    differences: [...v.differences, { attribute: "ambiguity", state: "conflict", a: [String(others)], b: [] }],
    reasoning: renderReasoning(v.notes, tail, v.venues.a, v.venues.b),
  };
}

/** Markets whose text changed since they were last read (all of them on a full run). */
async function readChanged(db: Db, full: boolean) {
  const stale = or(isNull(matchFeatures.marketId), ne(matchFeatures.fingerprint, fingerprintSql), ne(matchFeatures.engineVersion, ENGINE_VERSION));
  return db
    .select({
      id: markets.id,
      venue: markets.venue,
      eventId: markets.eventId,
      category: markets.category,
      title: markets.title,
      eventTitle: events.title,
      yesLabel: sql<string | null>`${markets.outcomes}->0->>'label'`,
      description: markets.description,
      resolutionDate: markets.resolutionDate,
      fingerprint: fingerprintSql,
    })
    .from(markets)
    .innerJoin(events, eq(events.id, markets.eventId))
    .leftJoin(matchFeatures, eq(matchFeatures.marketId, markets.id))
    .where(full ? undefined : stale);
}

async function storeFeatures(db: Db, rows: Array<{ features: Features; fingerprint: string }>, now: Date): Promise<void> {
  for (const batch of chunks(rows, BATCH)) {
    const json = JSON.stringify(
      batch.map((r) => ({
        market_id: r.features.id,
        venue: r.features.venue,
        fingerprint: r.fingerprint,
        keys: r.features.keys,
        features: r.features,
        engine_version: ENGINE_VERSION,
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

async function loadFeatures(db: Db, ids: string[]): Promise<Map<string, Features>> {
  const out = new Map<string, Features>();
  for (const batch of chunks(ids, BATCH)) {
    const rows = await db.select({ id: matchFeatures.marketId, features: matchFeatures.features }).from(matchFeatures).where(inArray(matchFeatures.marketId, batch));
    for (const row of rows) out.set(row.id, row.features as Features);
  }
  return out;
}

/** Current matches involving any of `ids`. */
async function currentMatches(db: Db, ids: string[]) {
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
function sameVerdict(row: typeof marketMatches.$inferSelect, v: Verdict): boolean {
  return row.relation === v.relation && row.engineVersion === ENGINE_VERSION && Math.abs(row.confidence - v.confidence) < 0.02;
}

/**
 * Writes the verdicts about `scope` markets: unchanged ones are confirmed, changed ones closed
 * and reopened (first_seen carried over), vanished ones closed. Nothing is rewritten in place
 * except `last_confirmed_at`.
 */
async function reconcile(db: Db, scope: string[], verdicts: Map<string, Verdict>, now: Date) {
  const existing = await currentMatches(db, scope);
  const confirm: string[] = [];
  const close: string[] = [];
  const open: Array<Verdict & { firstSeenAt: Date }> = [];
  for (const [key, v] of verdicts) {
    const row = existing.get(key);
    if (row === undefined) open.push({ ...v, firstSeenAt: now });
    else if (sameVerdict(row, v)) confirm.push(row.id);
    else {
      close.push(row.id);
      open.push({ ...v, firstSeenAt: row.firstSeenAt });
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
        batch.map((v) => ({
          market_a: v.a,
          market_b: v.b,
          relation: v.relation,
          confidence: v.confidence,
          reasoning: v.reasoning,
          differences: v.differences,
          engine_version: ENGINE_VERSION,
          first_seen_at: v.firstSeenAt.toISOString(),
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

interface FeaturesState {
  count: number;
  updatedAt: string | null;
}

/** A cheap summary of match_features: when it moved without this process, the cached index is stale. */
async function featuresState(db: Db): Promise<FeaturesState> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int`, updatedAt: sql<string | null>`max(${matchFeatures.updatedAt})::text` })
    .from(matchFeatures);
  return { count: row?.count ?? 0, updatedAt: row?.updatedAt ?? null };
}

/**
 * The candidate index per database, kept between passes in this process (a cache: the table is
 * the truth). Reused only when match_features is exactly as this process last left it; otherwise
 * rebuilt from the table.
 */
const indexCache = new WeakMap<Db, { index: CandidateIndex; state: FeaturesState; engine: string }>();

async function candidateIndexFor(db: Db, full: boolean, before: FeaturesState, fresh: Features[]): Promise<CandidateIndex> {
  const entries = fresh.map((f) => ({ id: f.id, venue: f.venue, keys: f.keys }));
  const cached = indexCache.get(db);
  let index: CandidateIndex;
  if (full) index = new CandidateIndex(entries);
  else if (cached !== undefined && cached.engine === ENGINE_VERSION && cached.state.count === before.count && cached.state.updatedAt === before.updatedAt) {
    cached.index.upsert(entries);
    index = cached.index;
  } else {
    const rows = await db.select({ id: matchFeatures.marketId, venue: matchFeatures.venue, keys: matchFeatures.keys }).from(matchFeatures);
    index = new CandidateIndex(rows);
  }
  indexCache.set(db, { index, state: before, engine: ENGINE_VERSION });
  return index;
}

/**
 * One matching pass. Incremental (default): reads only markets that are new or whose text
 * changed since the last pass, finds their candidates among every market, classifies those
 * pairs and reconciles the stored matches of those markets. `full` re-reads everything.
 */
export async function runMatching(db: Db, options: MatchRunOptions = {}): Promise<MatchRunSummary> {
  const started = Date.now();
  const now = options.now ?? new Date();
  const full = options.full === true;
  const progress = options.onProgress ?? (() => undefined);
  const perMarket = options.candidatesPerMarket ?? 12;

  progress({ phase: "reading", done: 0 });
  const before = await featuresState(db);
  const changed = await readChanged(db, full);
  progress({ phase: "extracting", done: 0, total: changed.length });
  const fresh = new Map<string, Features>();
  const toStore: Array<{ features: Features; fingerprint: string }> = [];
  for (const [i, row] of changed.entries()) {
    const features = extractFeatures({ ...row, resolutionDate: row.resolutionDate === null ? null : new Date(row.resolutionDate) });
    fresh.set(row.id, features);
    toStore.push({ features, fingerprint: row.fingerprint });
    if (i % 5000 === 4999) progress({ phase: "extracting", done: i + 1, total: changed.length });
  }
  await storeFeatures(db, toStore, now);

  progress({ phase: "indexing", done: 0 });
  const index = await candidateIndexFor(db, full, before, [...fresh.values()]);
  const idf = (token: string) => index.idf(token);

  // Candidates of each changed market, plus what it is matched with now (so a pair found from
  // the other side is re-judged rather than dropped).
  const scope = [...fresh.keys()];
  const existing = full ? new Map() : await currentMatches(db, scope);
  const pairs = new Map<string, [string, string]>();
  for (const f of fresh.values()) {
    for (const other of index.candidates(f, { limit: perMarket })) pairs.set(pairKey(f.id, other), f.id < other ? [f.id, other] : [other, f.id]);
  }
  for (const row of existing.values()) pairs.set(pairKey(row.marketA, row.marketB), [row.marketA, row.marketB]);
  const needed = [...new Set([...pairs.values()].flat())].filter((id) => !fresh.has(id));
  const others = await loadFeatures(db, needed);
  const featuresOf = (id: string) => fresh.get(id) ?? others.get(id);

  progress({ phase: "matching", done: 0, total: pairs.size });
  const verdicts = new Map<string, Verdict>();
  let compared = 0;
  for (const [key, [a, b]] of pairs) {
    const fa = featuresOf(a);
    const fb = featuresOf(b);
    compared += 1;
    if (compared % 20000 === 0) progress({ phase: "matching", done: compared, total: pairs.size });
    if (fa === undefined || fb === undefined || fa.venue === fb.venue) continue;
    const result = classifyPair(fa, fb, idf);
    if (result !== null) verdicts.set(key, { a, b, ...result });
  }

  // One question is listed once per venue (an identity with two markets of one other venue is
  // ambiguous and kept as an overlap); of the weaker verdicts each market keeps its strongest few.
  const kept = settleVerdicts(verdicts, { venueOf: (id) => featuresOf(id)?.venue, demote: demoteAmbiguous, weakPerMarket: WEAK_PER_MARKET });

  progress({ phase: "storing", done: 0, total: kept.size });
  const written = await reconcile(db, scope, kept, now);
  const cached = indexCache.get(db);
  if (cached !== undefined && cached.index === index) cached.state = await featuresState(db);
  const summary: MatchRunSummary = {
    mode: full ? "full" : "incremental",
    engineVersion: ENGINE_VERSION,
    marketsIndexed: index.size,
    marketsRead: changed.length,
    pairsCompared: compared,
    matchesFound: kept.size,
    ...written,
    durationMs: Date.now() - started,
  };
  progress({ phase: "done", done: kept.size, total: kept.size });
  // A pass that opened or closed nothing is routine (one per poll): debug, so the terminal stays quiet.
  (summary.opened > 0 || summary.closed > 0 || full ? log.info : log.debug)("matching pass finished", { ...summary });
  return summary;
}

/** After a catalog ingestion: an incremental pass that never fails the ingestion. */
export async function matchAfterIngest(db: Db): Promise<MatchRunSummary | null> {
  try {
    return await runMatching(db);
  } catch (error) {
    log.error("matching after ingestion failed", errorFields(error));
    return null;
  }
}
