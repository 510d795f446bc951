/**
 * matching:fit — fits the matching engine's identity decision and its confidence on the labelled
 * sets and writes lib/matching/data/decision.json and lib/matching/data/calibration.json.
 *
 * Each labelled set (template, real, real2) is served by the loopback fake venue and ingested
 * through the real catalog path into its own store; every pair the engine compares (each market's
 * candidates, as in a full pass) is classified and kept with its comparison vector and its label
 * (an unlisted pair is unrelated).
 *
 * 1. The identity decision: an L2-regularised logistic regression (Newton's method) over the
 *    identity candidates (pairs whose stated attributes agree) of the fit topics, right when
 *    labelled identity. Its threshold is chosen on the validation topics: the lowest of a 0.05
 *    grid at which identity precision there reaches 0.95 (else the most precise).
 * 2. The confidence of every other relation the engine then states, by the same regression, on
 *    the fit topics.
 * Validation log loss, Brier score and reliability tables are printed and stored beside the weights.
 *
 *   npm run matching:fit        (MATCHING_FIT_ROWS=<file> also writes every compared pair)
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Evidence } from "@/lib/matching/confidence";
import { claimIsRight, loadSet, pairId, setNames, type LabelledPair, type SetName, type Split } from "./labelled";

interface Collected {
  set: SetName;
  pair: string;
  split: Split;
  /** The relation the attributes give; for an identity candidate, before the decision. */
  relation: string;
  identityCandidate: boolean;
  evidence: Evidence;
  /** The labelled relation (unlisted: null). */
  label: LabelledPair | null;
  /** Both questions as read and the engine's reasoning (for MATCHING_FIT_ROWS, to read the errors). */
  text: string;
}

interface Row {
  set: SetName;
  split: Split;
  x: number[];
  y: number;
}

const output = path.resolve(__dirname, "../../lib/matching/data/calibration.json");
const decisionOutput = path.resolve(__dirname, "../../lib/matching/data/decision.json");

async function collect(name: SetName, out: string) {
  const { closeDatabase } = await import("@/lib/db");
  const { runMatching } = await import("@/lib/matching/engine");
  const { matchFeatures } = await import("@/lib/db/schema");
  const { CandidateIndex } = await import("@/lib/matching/candidates");
  const { classifyPair, invertRelation } = await import("@/lib/matching/classify");
  const { ingestSet } = await import("./ingest");
  const set = loadSet(name);
  const db = await ingestSet(set);
  await runMatching(db, { full: true });
  const { markets } = await import("@/lib/db/schema");
  const { eq } = await import("drizzle-orm");
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
    const verdict = classifyPair(a.features, b.features, (t) => index.idf(t));
    if (verdict === null) continue;
    const [pm, kx] = a.venue === "polymarket" ? [a, b] : [b, a];
    const relation = a.venue === "polymarket" ? verdict.relation : invertRelation(verdict.relation);
    const cid = pm.contractAddress ?? "";
    const split = set.splitOf.get(cid);
    if (split === undefined) continue;
    const label = set.labelOf.get(pairId(cid, kx.venueMarketId));
    const structural = verdict.identityCandidate ? "identity" : relation;
    result.push({ set: name, pair: `${pm.venueMarketId} ${kx.venueMarketId} ${label?.relation ?? "unlisted"}`, split, relation: structural, identityCandidate: verdict.identityCandidate, evidence: verdict.evidence, label: label ?? null, text: `${pm.features.question} <> ${kx.features.question} :: ${verdict.reasoning}` });
  }
  writeFileSync(out, JSON.stringify(result));
  await closeDatabase();
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Solves A x = b by Gaussian elimination with partial pivoting (A is small and regularised). */
function solve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i] ?? 0]);
  for (let c = 0; c < n; c += 1) {
    let pivot = c;
    for (let r = c + 1; r < n; r += 1) if (Math.abs(M[r]?.[c] ?? 0) > Math.abs(M[pivot]?.[c] ?? 0)) pivot = r;
    [M[c], M[pivot]] = [M[pivot] ?? [], M[c] ?? []];
    const row = M[c] ?? [];
    for (let r = 0; r < n; r += 1) {
      if (r === c) continue;
      const other = M[r] ?? [];
      const factor = (other[c] ?? 0) / (row[c] ?? 1);
      for (let k = c; k <= n; k += 1) other[k] = (other[k] ?? 0) - factor * (row[k] ?? 0);
    }
  }
  return M.map((row, i) => (row[n] ?? 0) / (row[i] ?? 1));
}

/** L2-regularised logistic regression by Newton's method. */
function fitLogistic(rows: Row[], lambda: number): number[] {
  const d = rows[0]?.x.length ?? 0;
  let w = new Array<number>(d).fill(0);
  for (let iter = 0; iter < 50; iter += 1) {
    const grad = w.map((wi) => lambda * wi);
    const hess = Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) => (i === j ? lambda : 0)));
    for (const r of rows) {
      const p = sigmoid(r.x.reduce((s, xi, i) => s + xi * (w[i] ?? 0), 0));
      const s = p * (1 - p);
      for (let i = 0; i < d; i += 1) {
        const xi = r.x[i] ?? 0;
        if (xi === 0) continue;
        grad[i] = (grad[i] ?? 0) + (p - r.y) * xi;
        const hi = hess[i] ?? [];
        for (let j = 0; j < d; j += 1) hi[j] = (hi[j] ?? 0) + s * xi * (r.x[j] ?? 0);
      }
    }
    const step = solve(hess, grad);
    w = w.map((wi, i) => wi - (step[i] ?? 0));
    if (Math.max(...step.map(Math.abs)) < 1e-8) break;
  }
  return w;
}

function evaluate(rows: Row[], w: number[]) {
  let logLoss = 0;
  let brier = 0;
  const buckets = [0, 0.5, 0.7, 0.8, 0.9, 0.95, 1.0001];
  const cells = buckets.slice(1).map(() => ({ n: 0, right: 0, sum: 0 }));
  for (const r of rows) {
    const p = sigmoid(r.x.reduce((s, xi, i) => s + xi * (w[i] ?? 0), 0));
    const q = Math.min(1 - 1e-9, Math.max(1e-9, p));
    logLoss -= r.y * Math.log(q) + (1 - r.y) * Math.log(1 - q);
    brier += (p - r.y) ** 2;
    const cell = cells[buckets.findIndex((lo, i) => p >= lo && p < (buckets[i + 1] ?? 2))];
    if (cell !== undefined) {
      cell.n += 1;
      cell.sum += p;
      cell.right += r.y;
    }
  }
  const n = Math.max(1, rows.length);
  return {
    pairs: rows.length,
    right: rows.filter((r) => r.y === 1).length,
    logLoss: Number((logLoss / n).toFixed(4)),
    brier: Number((brier / n).toFixed(4)),
    reliability: cells.map((c, i) => ({ from: buckets[i], to: Math.min(1, buckets[i + 1] ?? 1), count: c.n, meanConfidence: c.n === 0 ? null : Number((c.sum / c.n).toFixed(3)), observed: c.n === 0 ? null : Number((c.right / c.n).toFixed(3)) })),
  };
}

async function main() {
  const part = process.env.BRIER_MATCHING_FIT_PART;
  if (part !== undefined) {
    await collect(part as SetName, process.env.BRIER_MATCHING_FIT_OUT ?? "");
    return;
  }
  const collected: Collected[] = [];
  for (const name of setNames) {
    const dir = mkdtempSync(path.join(os.tmpdir(), "matching-fit-"));
    const out = path.join(dir, "rows.json");
    const child = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
      stdio: "inherit",
      env: { ...process.env, DATA_DIR: path.join(dir, "data"), BRIER_MATCHING_FIT_PART: name, BRIER_MATCHING_FIT_OUT: out, LOG_LEVEL: "warn" },
    });
    if (child.status !== 0) throw new Error(`collecting ${name} failed`);
    collected.push(...(JSON.parse(readFileSync(out, "utf8")) as Collected[]));
    rmSync(dir, { recursive: true, force: true });
  }
  const { featureNames, featureVector } = await import("@/lib/matching/confidence");
  const { decisionFeatures, decisionVector } = await import("@/lib/matching/decision");
  if (process.env.MATCHING_FIT_ROWS !== undefined) writeFileSync(process.env.MATCHING_FIT_ROWS, JSON.stringify(collected));
  const lambda = 1;

  // 1. The identity decision, on the pairs whose stated attributes agree: right when labelled identity.
  const candidates = collected.filter((c) => c.identityCandidate);
  const decisionRows = (split: Split) =>
    candidates.filter((c) => c.split === split).map((c) => ({ set: c.set, split: c.split, x: decisionVector(c.evidence), y: c.label?.relation === "identity" ? 1 : 0 }));
  const decisionWeights = fitLogistic(decisionRows("fit"), lambda).map((v) => Number(v.toFixed(4)));
  const probability = (x: number[]) => sigmoid(x.reduce((s, xi, i) => s + xi * (decisionWeights[i] ?? 0), 0));
  // The threshold, chosen on the validation topics: the lowest at which identity precision there
  // is at least the target (most recall), else the most precise.
  const target = 0.95;
  const validation = decisionRows("validation");
  const identitiesInValidation = collected.filter((c) => c.split === "validation" && c.label?.relation === "identity").length;
  const grid = Array.from({ length: 19 }, (_, i) => Number((0.05 + 0.05 * i).toFixed(2)));
  const atThreshold = grid.map((t) => {
    const claimed = validation.filter((r) => probability(r.x) >= t);
    const right = claimed.filter((r) => r.y === 1).length;
    return { threshold: t, claimed: claimed.length, right, precision: claimed.length === 0 ? 1 : right / claimed.length, recall: right / Math.max(1, identitiesInValidation) };
  });
  const meeting = atThreshold.filter((a) => a.precision >= target && a.claimed > 0);
  const chosen = meeting[0] ?? [...atThreshold].sort((x, y) => y.precision - x.precision || x.threshold - y.threshold)[0];
  const threshold = chosen?.threshold ?? 0.5;
  const decisionFile = {
    about:
      "Identity decision: P(one question) = sigmoid(weights . features(evidence)) for a pair whose stated attributes agree; identity when P >= threshold. Produced by `npm run matching:fit` (scripts/matching/fit.ts): L2-regularised logistic regression (Newton's method) over the identity candidates of a full pass of the labelled sets test/fixtures/matching, test/fixtures/matching-real and test/fixtures/matching-real2, on the topics of their fit part only; the threshold is the lowest of a 0.05 grid at which identity precision on the validation topics reaches 0.95 (else the most precise).",
    producedAt: new Date().toISOString(),
    lambda,
    features: [...decisionFeatures],
    weights: decisionWeights,
    threshold,
    thresholdChoice: { target, validationIdentities: identitiesInValidation, grid: atThreshold.map((a) => ({ ...a, precision: Number(a.precision.toFixed(3)), recall: Number(a.recall.toFixed(3)) })) },
    figures: { fit: evaluate(decisionRows("fit"), decisionWeights), validation: evaluate(validation, decisionWeights) },
  };
  writeFileSync(decisionOutput, `${JSON.stringify(decisionFile, null, 2)}\n`);
  console.log(`identity decision fitted on ${decisionRows("fit").length} candidates; threshold ${threshold} (validation: ${chosen?.right}/${chosen?.claimed} right, recall ${chosen?.recall.toFixed(3)} of ${identitiesInValidation})`);
  console.log(`decision weights: ${decisionFeatures.map((n, i) => `${n}=${decisionWeights[i]}`).join(" ")}`);

  // 2. The confidence of every other relation, on the relation the engine now states.
  const finalRelation = (c: Collected) => (c.identityCandidate ? (probability(decisionVector(c.evidence)) >= threshold ? "identity" : "overlap") : c.relation);
  const rows: Row[] = collected
    .filter((c) => finalRelation(c) !== "identity")
    .map((c) => {
      const relation = finalRelation(c) as Parameters<typeof featureVector>[0];
      return { set: c.set, split: c.split, x: featureVector(relation, c.evidence), y: claimIsRight(c.label ?? undefined, relation) ? 1 : 0 };
    });
  const fitRows = rows.filter((r) => r.split === "fit");
  const weights = fitLogistic(fitRows, lambda).map((v) => Number(v.toFixed(4)));
  const figures = {
    fit: evaluate(fitRows, weights),
    validation: evaluate(rows.filter((r) => r.split === "validation"), weights),
    validationBySet: Object.fromEntries(setNames.map((s) => [s, evaluate(rows.filter((r) => r.split === "validation" && r.set === s), weights)])),
  };
  const calibration = {
    about:
      "Confidence of a non-identity match (an identity's is the decision's probability, data/decision.json) = sigmoid(weights . features(relation, evidence)), the fitted probability that the stated relation is right. Produced by `npm run matching:fit` (scripts/matching/fit.ts): L2-regularised logistic regression (Newton's method) over every pair the engine compares in a full pass of the labelled sets test/fixtures/matching, test/fixtures/matching-real and test/fixtures/matching-real2 and does not call an identity, on the topics of their fit part only (a topic: the events joined by labelled pairs; one in three topics, by hash, is kept for validation). A pair is right when its labelled relation is the stated one (a subset/superset claim on a pair a real set labels as an implication is right); an unlisted pair is unrelated.",
    producedAt: new Date().toISOString(),
    lambda,
    features: [...featureNames],
    weights,
    figures,
  };
  writeFileSync(output, `${JSON.stringify(calibration, null, 2)}\n`);
  console.log(`fitted on ${fitRows.length} pairs (${figures.fit.right} right); wrote ${path.relative(process.cwd(), output)}`);
  console.log(`feature weights: ${featureNames.map((n, i) => `${n}=${weights[i]}`).join(" ")}`);
  for (const [name, e] of [["decision fit", decisionFile.figures.fit], ["decision validation", decisionFile.figures.validation], ["fit", figures.fit], ["validation", figures.validation], ...Object.entries(figures.validationBySet).map(([k, v]) => [`validation ${k}`, v] as const)] as const) {
    console.log(`${name.padEnd(20)} pairs=${e.pairs} right=${e.right} logLoss=${e.logLoss} brier=${e.brier}`);
    for (const c of e.reliability) if (c.count > 0) console.log(`    [${c.from?.toFixed(2)}, ${c.to.toFixed(2)})  observed ${c.observed?.toFixed(3)}  mean ${c.meanConfidence?.toFixed(3)}  (${c.count})`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
