/**
 * The identity decision's fit and its honest measure: an L2-regularised logistic regression over
 * the identity candidates (pairs whose stated attributes agree), cross-validated by topic.
 *
 * Every labelled pair is in one fold (its topic's, `labelled.ts`); fold i is scored by a model fitted
 * on the other folds, at a threshold chosen on those other folds alone (an inner cross-validation
 * over them: the lowest of a 0.01 grid at which their out-of-fold identity precision reaches the
 * target). So no pair is scored by a model or a threshold that saw it. The product's weights are then
 * fitted on every fold, at the threshold the pooled out-of-fold scores choose.
 */
import { claimIsRight } from "./labelled";
import type { Collected, SetLabels } from "./collect";

export const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

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

export interface Row {
  x: number[];
  y: number;
}

/** L2-regularised logistic regression by Newton's method. */
export function fitLogistic(rows: Row[], lambda: number): number[] {
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

/** The fitted probability, rounded as the engine serves it. */
export const probabilityOf = (w: readonly number[], x: readonly number[]) => Math.round(1000 * sigmoid(x.reduce((s, xi, i) => s + xi * (w[i] ?? 0), 0))) / 1000;

export const LAMBDA = 1;
export const PRECISION_TARGET = 0.95;
/**
 * The thresholds the folds choose among: every hundredth from 0.05 to 0.95. A 0.05 step let a fold's
 * threshold land only on 0.70, 0.75, ... so pairs the inner folds would keep at 0.67 or 0.87 were
 * cut at the next step up; the margin and the every-stricter-point rule of `chooseThreshold` hold
 * at each step.
 */
export const thresholdGrid = Array.from({ length: 91 }, (_, i) => Number((0.05 + 0.01 * i).toFixed(2)));

/** An identity candidate as the decision reads it. */
export interface Candidate {
  pair: string;
  set: string;
  fold: number;
  x: number[];
  y: number;
  /** The highest confidence the product serves this pair with (lib/matching/decision.ts, confidenceCeiling); 1 when absent. */
  ceiling?: number;
}

export interface Scored extends Candidate {
  p: number;
}

/**
 * The claims a pass keeps: a market that reads the same as two markets of the other venue is
 * ambiguous and neither pair is kept (as `policy.ts` settles a pass).
 */
export function settleClaims<T extends { pair: string }>(claims: T[]): T[] {
  const count = new Map<string, number>();
  const sides = (pair: string) => {
    const [pm, kx] = pair.split("|");
    return [`pm:${pm}`, `kx:${kx}`];
  };
  for (const c of claims) for (const s of sides(c.pair)) count.set(s, (count.get(s) ?? 0) + 1);
  return claims.filter((c) => sides(c.pair).every((s) => (count.get(s) ?? 0) === 1));
}

export interface GridPoint {
  threshold: number;
  claimed: number;
  right: number;
  precision: number;
  recall: number;
}

/**
 * The lower end of the Wilson interval of a precision of `right` of `claimed`, one standard error
 * below (z = 1): a precision reached on a few claims, or barely reached, is not yet reached.
 */
export function precisionLowerBound(right: number, claimed: number, z = 1): number {
  if (claimed === 0) return 0;
  const p = right / claimed;
  const z2 = z * z;
  return (p + z2 / (2 * claimed) - z * Math.sqrt((p * (1 - p)) / claimed + z2 / (4 * claimed * claimed))) / (1 + z2 / claimed);
}

/**
 * The lowest threshold at which the scored candidates' precision reaches the target with a margin
 * for how many claims it rests on (the Wilson lower bound, `precisionLowerBound`, reaches it), there
 * and at every stricter threshold of the grid: most recall. Else the most precise one that claims anything. Choosing where the plain precision first
 * touched the target spent every false claim the engine stopped making on a lower threshold, and the
 * folds showed that choice did not hold on topics it never saw.
 */
export function chooseThreshold(scored: Scored[], identities: number, target = PRECISION_TARGET): { threshold: number; grid: GridPoint[] } {
  const grid = thresholdGrid.map((t) => {
    const claimed = settleClaims(scored.filter((s) => s.p >= t));
    const right = claimed.filter((s) => s.y === 1).length;
    return { threshold: t, claimed: claimed.length, right, precision: claimed.length === 0 ? 1 : right / claimed.length, recall: right / Math.max(1, identities) };
  });
  // The target holds at the threshold and at every stricter one that claims anything: a low threshold
  // whose precision passes only because the false claims sit between it and a stricter one that
  // fails is not chosen (on a few hundred pairs, precision is not monotone in the threshold).
  const meets = (g: GridPoint) => g.claimed === 0 || precisionLowerBound(g.right, g.claimed) >= target;
  const meeting = grid.filter((g, i) => g.claimed > 0 && grid.slice(i).every(meets));
  const chosen = meeting[0] ?? [...grid].filter((g) => g.claimed > 0).sort((x, y) => y.precision - x.precision || x.threshold - y.threshold)[0];
  return { threshold: chosen?.threshold ?? 0.5, grid };
}

/**
 * The rows a model that validates fold `f` is fitted on: the candidates of `folds` other than `f`,
 * and the reviewed pairs (`extra`) of those folds. A reviewed pair of fold `f` is never fitted on
 * there (its topic is the one validated), and never scored anywhere (a person labelled it after
 * seeing the engine's answer).
 */
export function trainingRows(candidates: Candidate[], extra: Candidate[], f: number, folds: readonly number[]): Candidate[] {
  const inFolds = (c: Candidate) => c.fold !== f && folds.includes(c.fold);
  return [...candidates.filter(inFolds), ...extra.filter(inFolds)];
}

/** Out-of-fold scores of `candidates` over the folds `folds` (each scored by a model fitted on the others of `folds`). */
function outOfFold(candidates: Candidate[], extra: Candidate[], folds: number[]): Scored[] {
  const out: Scored[] = [];
  for (const f of folds) {
    const w = fitLogistic(trainingRows(candidates, extra, f, folds), LAMBDA);
    for (const c of candidates) if (c.fold === f) out.push({ ...c, p: Math.min(probabilityOf(w, c.x), c.ceiling ?? 1) });
  }
  return out;
}

export interface FoldFigures {
  fold: number;
  threshold: number;
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  /** Claims at minConfidence 0.9 (the served confidence is the probability). */
  tp90: number;
  fp90: number;
}

export interface CrossValidation {
  folds: FoldFigures[];
  /** Every labelled pair's out-of-fold score (identity candidates only). */
  scored: Scored[];
  /** The threshold the pooled out-of-fold scores choose (the product's). */
  pooled: { threshold: number; grid: GridPoint[] };
}

/**
 * K-fold cross-validation of the decision over `candidates`; `identitiesByFold` counts every
 * labelled identity of each fold (also those the engine never compared: they are misses).
 * `extra` rows (reviewed pairs, each in its topic's fold) are fitted on in every fold but their own
 * and never scored; `identitiesByFold` should not count them.
 */
export function crossValidate(candidates: Candidate[], identitiesByFold: number[], extra: Candidate[] = []): CrossValidation {
  const k = identitiesByFold.length;
  const all = Array.from({ length: k }, (_, i) => i);
  const folds: FoldFigures[] = [];
  const scored: Scored[] = [];
  for (const f of all) {
    const others = all.filter((o) => o !== f);
    // The threshold from the other folds alone (inner cross-validation over them).
    const inner = outOfFold(candidates, extra, others);
    const innerIdentities = others.reduce((s, o) => s + (identitiesByFold[o] ?? 0), 0);
    const { threshold } = chooseThreshold(inner, innerIdentities);
    const w = fitLogistic(trainingRows(candidates, extra, f, all), LAMBDA);
    const mine = candidates.filter((c) => c.fold === f).map((c) => ({ ...c, p: Math.min(probabilityOf(w, c.x), c.ceiling ?? 1) }));
    scored.push(...mine);
    const claims = settleClaims(mine.filter((c) => c.p >= threshold));
    const tp = claims.filter((c) => c.y === 1).length;
    const fp = claims.length - tp;
    const identities = identitiesByFold[f] ?? 0;
    const at90 = claims.filter((c) => c.p >= 0.9);
    folds.push({
      fold: f,
      threshold,
      tp,
      fp,
      fn: identities - tp,
      precision: claims.length === 0 ? 1 : tp / claims.length,
      recall: identities === 0 ? 1 : tp / identities,
      tp90: at90.filter((c) => c.y === 1).length,
      fp90: at90.filter((c) => c.y === 0).length,
    });
  }
  const total = identitiesByFold.reduce((s, n) => s + n, 0);
  return { folds, scored, pooled: chooseThreshold(scored, total) };
}

export const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
export const spread = (xs: number[]) => {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / Math.max(1, xs.length - 1));
};

/** The rule and nesting figures of a set of compared pairs, by fold (they do not depend on the decision). */
export function ruleFigures(collected: Collected[], labels: SetLabels[], ruleLabels: ReadonlySet<string>) {
  const byPair = new Map(collected.map((c) => [c.pair, c]));
  const labelled = labels.flatMap((l) => l.pairs);
  const rulesDiffer = labelled.filter((p) => (p.label.differs_in ?? []).some((d) => ruleLabels.has(d)));
  const identities = labelled.filter((p) => p.label.relation === "identity");
  const nested = labelled.filter((p) => p.label.relation === "subset" || p.label.relation === "superset");
  const named = (p: { pair: string }) => (byPair.get(p.pair)?.evidence.ruleDifferences ?? 0) > 0;
  return {
    rulesDiffer: rulesDiffer.length,
    rulesNamed: rulesDiffer.filter(named).length,
    identities: identities.length,
    identitiesNamed: identities.filter(named).length,
    nested: nested.length,
    nestedRight: nested.filter((p) => {
      const c = byPair.get(p.pair);
      return c !== undefined && claimIsRight(p.label, c.relation);
    }).length,
  };
}

/**
 * Candidates with operators' reviews (and the outcomes audit's proven negatives) applied: a reviewed
 * pair is labelled by its review and moved to `extra`, keeping its topic's fold (fitted on in every
 * other fold, never scored), so no fold is validated on a pair a person labelled after seeing the
 * engine's answer, nor fitted on one of the topic it validates. The folds' denominators (labelled
 * identities) leave reviewed pairs out too.
 */
export function withReviews(candidates: Candidate[], reviews: ReadonlyMap<string, number>): { candidates: Candidate[]; extra: Candidate[] } {
  if (reviews.size === 0) return { candidates, extra: [] };
  return {
    candidates: candidates.filter((c) => !reviews.has(c.pair)),
    extra: candidates.filter((c) => reviews.has(c.pair)).map((c) => ({ ...c, y: reviews.get(c.pair) ?? c.y })),
  };
}
