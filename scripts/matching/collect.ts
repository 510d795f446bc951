/**
 * Every pair a full pass of the matching engine compares on the labelled sets, with its comparison
 * vector and its label: the rows the fit (`npm run matching:fit`) and the bench's cross-validation
 * (`npm run bench:matching`) both read.
 *
 * Each set is served by the loopback fake venue and ingested through the real catalog path into
 * its own embedded store, in a child process (the store is opened from DATA_DIR at first use).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Evidence } from "@/lib/matching/confidence";
import { loadSet, pairId, setNames, type LabelledPair, type SetName } from "./labelled";

export interface Collected {
  set: SetName;
  /** `<conditionId>|<ticker>`: the labelled sets' pair id. */
  pair: string;
  /** Both markets by the venues' own ids (how reviews name them). */
  venueIds?: { polymarket: string; kalshi: string };
  /** The pair's topic and fold (the labelled Polymarket market's). */
  topic: string;
  fold: number;
  /** The relation the attributes give; for an identity candidate, before the decision. */
  relation: string;
  identityCandidate: boolean;
  evidence: Evidence;
  /** The labelled relation (unlisted: null). */
  label: LabelledPair | null;
  /** Both questions as read and the engine's reasoning (MATCHING_FIT_ROWS writes them, to read the errors). */
  text: string;
}

/** A set's labelled identities and pairs, by fold: the denominators of the fold figures. */
export interface SetLabels {
  set: SetName;
  pairs: Array<{ pair: string; fold: number; topic: string; label: LabelledPair }>;
}

const PART = "BRIER_MATCHING_COLLECT_PART";

async function collect(name: SetName, out: string) {
  const { closeDatabase } = await import("@/lib/db");
  const { runMatching } = await import("@/lib/matching/engine");
  const { matchFeatures, markets } = await import("@/lib/db/schema");
  const { CandidateIndex } = await import("@/lib/matching/candidates");
  const { classifyPair, invertRelation } = await import("@/lib/matching/classify");
  const { eq } = await import("drizzle-orm");
  const { ingestSet } = await import("./ingest");
  const set = loadSet(name);
  const db = await ingestSet(set);
  await runMatching(db, { full: true });
  const rows = await db
    .select({ id: matchFeatures.marketId, venue: matchFeatures.venue, keys: matchFeatures.keys, features: matchFeatures.features, venueMarketId: markets.venueMarketId, contractAddress: markets.contractAddress })
    .from(matchFeatures)
    .innerJoin(markets, eq(markets.id, matchFeatures.marketId));
  type Features = Parameters<typeof classifyPair>[0];
  const byId = new Map(rows.map((r) => [r.id, { ...r, features: r.features as Features }]));
  const index = new CandidateIndex(rows.map((r) => ({ id: r.id, venue: r.venue, keys: r.keys })));
  const pairs = new Set<string>();
  for (const r of rows) for (const other of index.candidates({ id: r.id, venue: r.venue, keys: r.keys }, { limit: 12 })) pairs.add(r.id < other ? `${r.id}|${other}` : `${other}|${r.id}`);
  const result: Collected[] = [];
  for (const key of pairs) {
    const [x, y] = key.split("|");
    const a = byId.get(x ?? "");
    const b = byId.get(y ?? "");
    if (a === undefined || b === undefined || a.venue === b.venue) continue;
    const verdict = classifyPair(a.features, b.features, (t) => index.idf(t), index);
    if (verdict === null) continue;
    const [pm, kx] = a.venue === "polymarket" ? [a, b] : [b, a];
    const relation = a.venue === "polymarket" ? verdict.relation : invertRelation(verdict.relation);
    const cid = pm.contractAddress ?? "";
    const fold = set.foldOf.get(cid);
    const topic = set.topicOf.get(cid);
    if (fold === undefined || topic === undefined) continue;
    const label = set.labelOf.get(pairId(cid, kx.venueMarketId));
    result.push({
      set: name,
      pair: pairId(cid, kx.venueMarketId),
      venueIds: { polymarket: pm.venueMarketId, kalshi: kx.venueMarketId },
      topic,
      fold,
      relation: verdict.identityCandidate ? "identity" : relation,
      identityCandidate: verdict.identityCandidate,
      evidence: verdict.evidence,
      label: label ?? null,
      text: `${pm.features.question} <> ${kx.features.question} :: ${verdict.reasoning}`,
    });
  }
  writeFileSync(out, JSON.stringify(result));
  await closeDatabase();
}

/** The labelled pairs of a set with their folds. */
export function setLabels(name: SetName): SetLabels {
  const set = loadSet(name);
  return {
    set: name,
    pairs: set.pairs.map((label) => ({ pair: pairId(label.polymarket.conditionId, label.kalshi.ticker), fold: set.foldOf.get(label.polymarket.conditionId) ?? 0, topic: set.topicOf.get(label.polymarket.conditionId) ?? "", label })),
  };
}

/** Every compared pair of every set (one child process per set). */
export function collectAll(sets: readonly SetName[] = setNames): Collected[] {
  const collected: Collected[] = [];
  for (const name of sets) {
    const dir = mkdtempSync(path.join(os.tmpdir(), "matching-collect-"));
    const out = path.join(dir, "rows.json");
    const child = spawnSync(process.execPath, [...process.execArgv, __filename], {
      stdio: "inherit",
      env: { ...process.env, DATA_DIR: path.join(dir, "data"), [PART]: name, BRIER_MATCHING_COLLECT_OUT: out, LOG_LEVEL: "warn" },
    });
    if (child.status !== 0) throw new Error(`collecting ${name} failed`);
    collected.push(...(JSON.parse(readFileSync(out, "utf8")) as Collected[]));
    rmSync(dir, { recursive: true, force: true });
  }
  return collected;
}

if (process.env[PART] !== undefined && require.main === module) {
  collect(process.env[PART] as SetName, process.env.BRIER_MATCHING_COLLECT_OUT ?? "").then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

/**
 * Operators' reviews (the JSON Lines export of the review queue, where MATCHING_REVIEWS points) as
 * labels of the compared pairs they name: `y` of the identity decision, by the pair's id. Empty when
 * no file is given.
 */
export function reviewLabels(collected: Collected[], file = process.env.MATCHING_REVIEWS): Map<string, number> {
  const out = new Map<string, number>();
  if (file === undefined || file === "") return out;
  const byVenueIds = new Map(collected.flatMap((c) => (c.venueIds === undefined ? [] : [[`${c.venueIds.polymarket}|${c.venueIds.kalshi}`, c.pair] as const])));
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const r = JSON.parse(line) as { a: { venue: string; venueMarketId: string }; b: { venue: string; venueMarketId: string }; verdict: string; relation: string };
    const [pm, kx] = r.a.venue === "polymarket" ? [r.a, r.b] : [r.b, r.a];
    const pair = byVenueIds.get(`${pm.venueMarketId}|${kx.venueMarketId}`);
    if (pair !== undefined) out.set(pair, r.verdict === "confirmed" && r.relation === "identity" ? 1 : 0);
  }
  return out;
}
