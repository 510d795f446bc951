import "server-only";
import type { Db } from "@/lib/db";
import { errorFields, log } from "@/lib/log";
import { CandidateIndex } from "./candidates";
import { classifyPair, type PairResult } from "./classify";
import { calibrated, type Evidence } from "./confidence";
import { extractFeatures, StringPool, type Features } from "./extract";
import { parseSettlementFields, rangeOfRules, type EventRange } from "./rules";
import { settleVerdicts, WeakVerdicts } from "./policy";
import { renderReasoning } from "./reasoning";
import { currentMatches, featuresState, indexEntries, loadFeatures, pairKey, readChanged, readEventRules, reconcile, storeFeatures, type FeaturesState, type StoredVerdict } from "./store";

/** Bumped whenever extraction or classification changes what it concludes. */
export const ENGINE_VERSION = "brier-match-25";

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

/** Overlap/disjoint verdicts kept per market (the strongest). */
const WEAK_PER_MARKET = 4;


/**
 * A verdict as a pass holds it until it is stored: what is stored, and what its reasoning is
 * rendered from. The evidence is kept for identities only (an ambiguous one is demoted and its
 * confidence recomputed from it); the rest of the comparison (rule differences, the model's flags)
 * is read by the fitting scripts, never stored, so a pass lets it go as soon as a pair is compared.
 */
interface Verdict extends Pick<PairResult, "relation" | "confidence" | "reasoning" | "notes" | "tail" | "venues" | "differences"> {
  a: string;
  b: string;
  evidence: Evidence | null;
}

function heldVerdict(a: string, b: string, r: PairResult): Verdict {
  return { a, b, relation: r.relation, confidence: r.confidence, reasoning: "", notes: r.notes, tail: r.tail, venues: r.venues, differences: r.differences, evidence: r.relation === "identity" ? r.evidence : null };
}

/** An identity that is ambiguous (one side reads the same as `others` more markets of the other venue), as the overlap it becomes. */
function demoteAmbiguous(v: Verdict, others: number): Verdict {
  const tail = { kind: "ambiguous", others } as const;
  // Only identities are demoted, and a held identity keeps its evidence.
  if (v.evidence === null) throw new Error(`matching: a ${v.relation} verdict cannot be ambiguous`);
  return {
    ...v,
    relation: "overlap",
    confidence: calibrated("overlap", v.evidence),
    tail,
    differences: [...v.differences, { attribute: "ambiguity", state: "conflict", a: [String(others)], b: [] }],
    reasoning: renderReasoning(v.notes, tail, v.venues.a, v.venues.b),
  };
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
    index = new CandidateIndex(await indexEntries(db));
  }
  indexCache.set(db, { index, state: before, engine: ENGINE_VERSION });
  return index;
}

/**
 * The ranges (brackets, bounds) each event's markets state in their rules, by venue and event
 * (`rangeOfRules`): what settles, or opens, the edges of a bracket its own rules leave unsaid
 * (`settleEdges`). A full pass reads every market; an incremental one also reads the rules of the
 * other markets of the events it re-reads. One list per event, shared by its markets.
 */
async function eventRanges(
  db: Db,
  changed: Array<{ id: string; venue: string; eventId: string; description: string | null }>,
  full: boolean,
): Promise<Map<string, EventRange[]>> {
  const read = new Set(changed.map((r) => r.id));
  const others = full ? [] : (await readEventRules(db, [...new Set(changed.map((r) => r.eventId))])).filter((r) => !read.has(r.id));
  const byEvent = new Map<string, EventRange[]>();
  for (const row of [...changed, ...others]) {
    const range = rangeOfRules(row.description);
    if (range === undefined) continue;
    const group = `${row.venue}|${row.eventId}`;
    const list = byEvent.get(group);
    if (list === undefined) byEvent.set(group, [range]);
    else list.push(range);
  }
  return byEvent;
}

/**
 * Reads the markets to re-read (every market on a full pass) and extracts and stores their
 * features. The rows read are let go when it returns: a pass holds the features, not the text.
 */
async function extractChanged(db: Db, full: boolean, now: Date, progress: (p: MatchProgress) => void): Promise<Map<string, Features>> {
  const changed = await readChanged(db, full, ENGINE_VERSION);
  progress({ phase: "extracting", done: 0, total: changed.length });
  const fresh = new Map<string, Features>();
  const toStore: Array<{ features: Features; fingerprint: string }> = [];
  // One copy of each word the markets share, for as long as the pass holds their features.
  const pool = new StringPool();
  const ranges = await eventRanges(db, changed, full);
  for (const [i, row] of changed.entries()) {
    const features = pool.features(
      extractFeatures({ ...row, settlement: parseSettlementFields(row.settlement), resolutionDate: row.resolutionDate === null ? null : new Date(row.resolutionDate), eventRanges: ranges.get(`${row.venue}|${row.eventId}`) }),
    );
    fresh.set(row.id, features);
    toStore.push({ features, fingerprint: row.fingerprint });
    if (i % 5000 === 4999) progress({ phase: "extracting", done: i + 1, total: changed.length });
  }
  await storeFeatures(db, toStore, now, ENGINE_VERSION);
  return fresh;
}

/**
 * The pairs a pass compares, in the order it compares them: each read market's candidates in turn
 * (a pair nominated from both sides once, where it is first nominated), then the stored matches of
 * the read markets not nominated again (so a pair found from the other side is re-judged rather
 * than dropped). Generated as they are compared rather than held all at once (a full pass compares a
 * dozen pairs a market): what is held is each read market's candidate list.
 */
class PassPairs {
  private readonly order = new Map<string, number>();

  constructor(
    private readonly fresh: ReadonlyMap<string, Features>,
    private readonly candidates: ReadonlyArray<readonly string[]>,
    private readonly existing: ReadonlyArray<readonly [string, string]>,
  ) {
    let i = 0;
    for (const id of fresh.keys()) this.order.set(id, i++);
  }

  /** Whether read market `at` (its position) nominates `other`. */
  private nominates(at: number | undefined, other: string): boolean {
    return at !== undefined && (this.candidates[at] ?? []).includes(other);
  }

  *[Symbol.iterator](): IterableIterator<[string, string]> {
    let at = 0;
    for (const f of this.fresh.keys()) {
      for (const other of this.candidates[at] ?? []) {
        // Nominated from both sides: compared where the earlier read market nominated it.
        const o = this.order.get(other);
        if (o !== undefined && o < at && this.nominates(o, f)) continue;
        yield f < other ? [f, other] : [other, f];
      }
      at += 1;
    }
    for (const [a, b] of this.existing) {
      if (this.nominates(this.order.get(a), b) || this.nominates(this.order.get(b), a)) continue;
      yield [a, b];
    }
  }

  get size(): number {
    let n = 0;
    for (const _ of this) n += 1;
    return n;
  }

  /** The markets of the pairs that were not read (their features are loaded from the store). */
  others(): string[] {
    const out = new Set<string>();
    for (const list of this.candidates) for (const id of list) if (!this.fresh.has(id)) out.add(id);
    for (const pair of this.existing) for (const id of pair) if (!this.fresh.has(id)) out.add(id);
    return [...out];
  }
}

/**
 * Compares the read markets with their candidates and settles the verdicts: what a pass keeps,
 * its reasoning rendered, as the rows to store. The features are let go when it returns.
 */
async function compareFresh(
  db: Db,
  fresh: Map<string, Features>,
  options: { full: boolean; before: FeaturesState; perMarket: number; progress: (p: MatchProgress) => void },
): Promise<{ scope: string[]; index: CandidateIndex; compared: number; kept: Map<string, StoredVerdict> }> {
  const { full, progress } = options;
  progress({ phase: "indexing", done: 0 });
  const index = await candidateIndexFor(db, full, options.before, [...fresh.values()]);
  const idf = (token: string) => index.idf(token);
  const travels = index;

  const scope = [...fresh.keys()];
  const existing = full ? new Map() : await currentMatches(db, scope);
  const candidates = [...fresh.values()].map((f) => index.candidates(f, { limit: options.perMarket }));
  const pairs = new PassPairs(fresh, candidates, [...existing.values()].map((row) => [row.marketA, row.marketB] as const));
  const others = await loadFeatures(db, pairs.others());
  const featuresOf = (id: string) => fresh.get(id) ?? others.get(id);

  const total = pairs.size;
  progress({ phase: "matching", done: 0, total });
  // Held while comparing: every identity and nesting, and of the weak verdicts only those that can
  // still be among a market's strongest few (the rest would be pruned whatever comes later); the
  // reasoning's text is rendered for the verdicts kept (a full pass compares a dozen pairs a market,
  // and held every verdict with its text: most of its memory).
  const verdicts = new Map<string, Verdict>();
  const weak = new WeakVerdicts<Verdict>(WEAK_PER_MARKET);
  let compared = 0;
  for (const [a, b] of pairs) {
    const fa = featuresOf(a);
    const fb = featuresOf(b);
    compared += 1;
    if (compared % 20000 === 0) progress({ phase: "matching", done: compared, total });
    if (fa === undefined || fb === undefined || fa.venue === fb.venue) continue;
    const result = classifyPair(fa, fb, idf, travels);
    if (result === null) continue;
    const verdict = heldVerdict(a, b, result);
    if (result.relation === "overlap" || result.relation === "disjoint") weak.add(pairKey(a, b), verdict);
    else verdicts.set(pairKey(a, b), verdict);
  }
  // The strong verdicts in pass order, then the weak ones held (no pair is both).
  for (const [key, v] of weak.entries()) verdicts.set(key, v);

  // One question is listed once per venue (an identity with two markets of one other venue is
  // ambiguous and kept as an overlap); of the weaker verdicts each market keeps its strongest few.
  const settled = settleVerdicts(verdicts, { venueOf: (id) => featuresOf(id)?.venue, demote: demoteAmbiguous, weakPerMarket: WEAK_PER_MARKET });
  verdicts.clear();
  // Kept as what is stored: the reasoning rendered, what it was rendered from let go.
  const kept = new Map<string, StoredVerdict>();
  for (const [key, v] of settled) {
    kept.set(key, { a: v.a, b: v.b, relation: v.relation, confidence: v.confidence, reasoning: v.reasoning === "" ? renderReasoning(v.notes, v.tail, v.venues.a, v.venues.b) : v.reasoning, differences: v.differences });
  }
  return { scope, index, compared, kept };
}

/**
 * One matching pass. Incremental (default): reads only markets that are new or whose text
 * changed since the last pass, finds their candidates among every market, classifies those
 * pairs and reconciles the stored matches of those markets. `full` re-reads everything.
 * Each phase's structures are let go when it ends (the text read, then the features and the
 * verdicts' comparisons), so the pass holds at most one phase's.
 */
export async function runMatching(db: Db, options: MatchRunOptions = {}): Promise<MatchRunSummary> {
  const started = Date.now();
  const now = options.now ?? new Date();
  const full = options.full === true;
  const progress = options.onProgress ?? (() => undefined);
  const perMarket = options.candidatesPerMarket ?? 12;

  progress({ phase: "reading", done: 0 });
  const before = await featuresState(db);
  const { scope, index, compared, kept } = await compareFresh(db, await extractChanged(db, full, now, progress), { full, before, perMarket, progress });

  progress({ phase: "storing", done: 0, total: kept.size });
  const written = await reconcile(db, scope, kept, now, ENGINE_VERSION);
  const cached = indexCache.get(db);
  if (cached !== undefined && cached.index === index) cached.state = await featuresState(db);
  const summary: MatchRunSummary = {
    mode: full ? "full" : "incremental",
    engineVersion: ENGINE_VERSION,
    marketsIndexed: index.size,
    marketsRead: scope.length,
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
