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
 *    identity candidates (pairs whose stated attributes agree) of every labelled pair, right when
 *    labelled identity (`folds.ts`). Its threshold is chosen on out-of-fold scores: each topic fold
 *    scored by a model fitted on the others, the lowest of a 0.01 grid at which the pooled
 *    identity precision reaches 0.95 (else the most precise).
 * 2. The confidence of every other relation the engine then states, by the same regression.
 * Out-of-fold log loss, Brier score and reliability tables are printed and stored beside the weights.
 *
 *   npm run matching:fit        (MATCHING_FIT_ROWS=<file> also writes every compared pair)
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { collectAll, reviewLabels, setLabels, type Collected } from "./collect";
import { crossValidate, fitLogistic, LAMBDA, PRECISION_TARGET, sigmoid, withReviews, type Row } from "./folds";
import { claimIsRight, FOLDS, setNames } from "./labelled";

const output = path.resolve(__dirname, "../../lib/matching/data/calibration.json");
const decisionOutput = path.resolve(__dirname, "../../lib/matching/data/decision.json");

function evaluate(rows: Array<Row & { p?: number }>, w: number[]) {
  let logLoss = 0;
  let brier = 0;
  const buckets = [0, 0.5, 0.7, 0.8, 0.9, 0.95, 1.0001];
  const cells = buckets.slice(1).map(() => ({ n: 0, right: 0, sum: 0 }));
  for (const r of rows) {
    const p = r.p ?? sigmoid(r.x.reduce((s, xi, i) => s + xi * (w[i] ?? 0), 0));
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
  const collected: Collected[] = collectAll();
  const { featureNames, featureVector } = await import("@/lib/matching/confidence");
  const { confidenceCeiling, decisionFeatures, decisionVector } = await import("@/lib/matching/decision");
  if (process.env.MATCHING_FIT_ROWS !== undefined) writeFileSync(process.env.MATCHING_FIT_ROWS, JSON.stringify(collected));
  const lambda = LAMBDA;

  // 1. The identity decision, on the pairs whose stated attributes agree: right when labelled identity.
  // Operators' reviews and the outcomes audit's proven negatives (MATCHING_REVIEWS, the review queue's JSON Lines
  // export) label the pairs they name: fitted on in every fold but their topic's, never validated.
  const reviews = reviewLabels(collected);
  const { candidates, extra } = withReviews(
    collected.filter((c) => c.identityCandidate).map((c) => ({ pair: c.pair, set: c.set, fold: c.fold, x: decisionVector(c.evidence), ceiling: confidenceCeiling(c.evidence), y: c.label?.relation === "identity" ? 1 : 0 })),
    reviews,
  );
  const identitiesByFold = Array.from({ length: FOLDS }, () => 0);
  // A reviewed pair is never validated on, so it is no fold's labelled identity either.
  for (const l of setNames.map(setLabels)) for (const p of l.pairs) if (p.label.relation === "identity" && !reviews.has(p.pair)) identitiesByFold[p.fold] = (identitiesByFold[p.fold] ?? 0) + 1;
  const cv = crossValidate(candidates, identitiesByFold, extra);
  if (reviews.size > 0) console.log(`reviews read as labels: ${reviews.size} pairs (${extra.length} identity candidates, fitted on in every fold but their own, never validated)`);
  const decisionWeights = fitLogistic([...candidates, ...extra], lambda).map((v) => Number(v.toFixed(4)));
  const probability = (x: number[]) => sigmoid(x.reduce((s, xi, i) => s + xi * (decisionWeights[i] ?? 0), 0));
  const target = PRECISION_TARGET;
  const threshold = cv.pooled.threshold;
  const chosen = cv.pooled.grid.find((g) => g.threshold === threshold);
  const identities = identitiesByFold.reduce((s, n) => s + n, 0);
  const decisionFile = {
    about:
      "Identity decision: P(one question) = sigmoid(weights . features(evidence)) for a pair whose stated attributes agree; identity when P >= threshold. Produced by `npm run matching:fit` (scripts/matching/fit.ts, scripts/matching/folds.ts): L2-regularised logistic regression (Newton's method) over the identity candidates of a full pass of the labelled sets test/fixtures/matching, test/fixtures/matching-real and test/fixtures/matching-real2; the threshold is the lowest of a 0.01 grid at which the identity precision of the out-of-fold scores (5 folds by topic, each scored by a model fitted on the other four) reaches 0.95 with a margin for the number of claims (the lower end of its Wilson interval, one standard error; else the most precise).",
    producedAt: new Date().toISOString(),
    lambda,
    features: [...decisionFeatures],
    weights: decisionWeights,
    threshold,
    thresholdChoice: { target, folds: FOLDS, labelledIdentities: identities, grid: cv.pooled.grid.map((a) => ({ ...a, precision: Number(a.precision.toFixed(3)), recall: Number(a.recall.toFixed(3)) })) },
    figures: { fit: evaluate(candidates, decisionWeights), outOfFold: evaluate(cv.scored, decisionWeights) },
  };
  writeFileSync(decisionOutput, `${JSON.stringify(decisionFile, null, 2)}\n`);
  console.log(`identity decision fitted on ${candidates.length} candidates; threshold ${threshold} (out of fold: ${chosen?.right}/${chosen?.claimed} right, recall ${chosen?.recall.toFixed(3)} of ${identities})`);
  console.log(`decision weights: ${decisionFeatures.map((n, i) => `${n}=${decisionWeights[i]}`).join(" ")}`);

  // 2. The confidence of every other relation, on the relation the engine now states.
  const finalRelation = (c: Collected) => (c.identityCandidate ? (probability(decisionVector(c.evidence)) >= threshold ? "identity" : "overlap") : c.relation);
  const rows = collected
    .filter((c) => finalRelation(c) !== "identity")
    .map((c) => {
      const relation = finalRelation(c) as Parameters<typeof featureVector>[0];
      return { set: c.set, fold: c.fold, x: featureVector(relation, c.evidence), y: claimIsRight(c.label ?? undefined, relation) ? 1 : 0 };
    });
  const weights = fitLogistic(rows, lambda).map((v) => Number(v.toFixed(4)));
  // Out of fold: each fold scored by a model fitted on the others.
  const outOfFold = Array.from({ length: FOLDS }, (_, f) => {
    const w = fitLogistic(rows.filter((r) => r.fold !== f), lambda);
    return rows.filter((r) => r.fold === f).map((r) => ({ ...r, p: sigmoid(r.x.reduce((s, xi, i) => s + xi * (w[i] ?? 0), 0)) }));
  }).flat();
  const figures = {
    fit: evaluate(rows, weights),
    outOfFold: evaluate(outOfFold, weights),
    outOfFoldBySet: Object.fromEntries(setNames.map((s) => [s, evaluate(outOfFold.filter((r) => r.set === s), weights)])),
  };
  const calibration = {
    about:
      "Confidence of a non-identity match (an identity's is the decision's probability, data/decision.json) = sigmoid(weights . features(relation, evidence)), the fitted probability that the stated relation is right. Produced by `npm run matching:fit` (scripts/matching/fit.ts): L2-regularised logistic regression (Newton's method) over every pair the engine compares in a full pass of the labelled sets test/fixtures/matching, test/fixtures/matching-real and test/fixtures/matching-real2 and does not call an identity (figures.outOfFold: each of 5 folds by topic scored by a model fitted on the other four; a topic: the events joined by labelled pairs). A pair is right when its labelled relation is the stated one (a subset/superset claim on a pair a real set labels as an implication is right); an unlisted pair is unrelated.",
    producedAt: new Date().toISOString(),
    lambda,
    features: [...featureNames],
    weights,
    figures,
  };
  writeFileSync(output, `${JSON.stringify(calibration, null, 2)}\n`);
  console.log(`fitted on ${rows.length} pairs (${figures.fit.right} right); wrote ${path.relative(process.cwd(), output)}`);
  console.log(`feature weights: ${featureNames.map((n, i) => `${n}=${weights[i]}`).join(" ")}`);
  for (const [name, e] of [["decision fit", decisionFile.figures.fit], ["decision out of fold", decisionFile.figures.outOfFold], ["fit", figures.fit], ["out of fold", figures.outOfFold], ...Object.entries(figures.outOfFoldBySet).map(([k, v]) => [`out of fold ${k}`, v] as const)] as const) {
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
