/**
 * bench:matching — how often the matching engine is right, and how fast it is.
 *
 * 1. Quality, on every labelled set: the template set (test/fixtures/matching) and the two sets of
 *    real listings (test/fixtures/matching-real, test/fixtures/matching-real2). Each is served by the loopback fake venue in the
 *    venues' wire formats and ingested through the real catalog path (pmxt-core -> normalize ->
 *    upsert; the ingestion runs the incremental matching pass), in its own store. Then a full pass,
 *    and GET /v0/markets/{conditionId}/matches?limit=50 (the route handler, in-process, with a real
 *    key) for every labelled Polymarket market. Per set and per split (all; the topics the
 *    confidence was fitted on; the topics kept for validation): identity precision/recall/F1, per
 *    category, at minConfidence 0.5/0.8/0.9/0.95, subset/superset relation accuracy, and a
 *    reliability table (confidence bucket -> observed precision of the claims, count), and how
 *    many pairs labelled as differing in their rules get a rule difference in the answer.
 * 2. Speed (only with --speed): synthetic catalogs of N markets per venue (default 100,000) in a
 *    throwaway PostgreSQL database (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres):
 *    a full pass, then an incremental pass after 1,000 markets changed. Peak RSS.
 *
 * 3. Whole catalogs (only with --catalogs): both real catalogs of one week (catalogs-2025-02, read
 *    where MATCHING_CATALOGS_DIR points), ingested through the same path, every market against
 *    every market in a full pass: the identities claimed, the time and memory of the pass, the
 *    recall of the labelled pairs inside them, and a seeded random sample of the claims with both
 *    sides' text, to be read by hand.
 *
 *   npm run bench:matching [-- --sets template,real,real2] [-- --no-folds] [-- --no-routes]
 *                          [-- --rows-out FILE | --rows-in FILE]   (keep, or re-score, the folds' compared pairs)
 *                          [-- --catalogs --sample 60 --seed 2025 [--claims-out FILE]]   (every whole-catalog claim, to compare two engines' claims)
 *                          [-- --speed --markets 100000 --changed 1000 [--heap-snapshot FILE] [--claims-out FILE]]   (--claims-out: every current match after each pass)
 *                          [-- --speed --memory --markets 6000]   (where a full pass's heap goes, in process; node --expose-gc)
 *
 * Targets on data the engine never saw: identity precision >= 0.97 with recall >= 0.95 on
 * template-style sets (subset/superset accuracy >= 0.85), >= 0.95 with recall >= 0.70 on real
 * listings, >= 0.98 at minConfidence 0.9; over whole catalogs, >= 95 % of a sample of claims right
 * when read by hand; full <= 10 min; incremental <= 10 s.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { writeHeapSnapshot } from "node:v8";
import postgres from "postgres";
import { collectAll, reviewLabels, setLabels, type Collected } from "../matching/collect";
import { crossValidate, mean, ruleFigures, settleClaims, spread, withReviews } from "../matching/folds";
import { catalogsDir, claimIsRight, FOLDS, loadSet, pairId, setNames, type LabelledSet, type SetName } from "../matching/labelled";
import type { PolicyVerdict } from "@/lib/matching/policy";
import { benchDataDir } from "./lib/harness";
import { loadLine } from "./lib/memory";

const { values } = parseArgs({
  options: {
    sets: { type: "string", default: setNames.join(",") },
    folds: { type: "boolean", default: true },
    routes: { type: "boolean", default: true },
    "rows-out": { type: "string" },
    "claims-out": { type: "string" },
    "rows-in": { type: "string" },
    speed: { type: "boolean", default: false },
    explain: { type: "boolean", default: false },
    markets: { type: "string", default: "100000" },
    changed: { type: "string", default: "1000" },
    catalogs: { type: "boolean", default: false },
    sample: { type: "string", default: "60" },
    seed: { type: "string", default: "2025" },
    "heap-snapshot": { type: "string" },
    memory: { type: "boolean", default: false },
  },
  allowNegative: true,
});
const adminUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

type Predicted = { relation: string; confidence: number; reasoning: string; ruleDifferences: number };

/** Every labelled Polymarket market's matches, through the route an analyst calls. */
async function predict(set: LabelledSet): Promise<{ predictions: Map<string, Predicted>; failed: number; callMs: number; fullMs: number }> {
  const { ensureAccount, setPlan } = await import("@/lib/auth/accounts");
  const { createApiKey } = await import("@/lib/auth/api-keys");
  const { runMatching } = await import("@/lib/matching/engine");
  const { GET: marketMatches } = await import("@/app/v0/markets/[id]/matches/route");
  const { ingestSet } = await import("../matching/ingest");
  const db = await ingestSet(set);
  const full = await runMatching(db, { full: true });
  const email = `bench-matching-${Date.now()}@example.test`;
  const { account } = await ensureAccount(db, email);
  await setPlan(db, email, "enterprise");
  const key = (await createApiKey(db, account.id, "bench")).key;
  const predictions = new Map<string, Predicted>();
  let failed = 0;
  const started = Date.now();
  for (const cid of set.categoryOf.keys()) {
    const request = new Request(`http://localhost/v0/markets/${cid}/matches?limit=50`, { headers: { authorization: `Bearer ${key}` } });
    const res = await marketMatches(request, { params: Promise.resolve({ id: cid }) });
    if (res.status !== 200) {
      failed += 1;
      continue;
    }
    const body = (await res.json()) as {
      data: { matches: Array<{ market: { exchange: string; venueMarketId: string }; relation: string; confidence: number; reasoning: string; ruleDifferences?: unknown[] }> };
    };
    for (const m of body.data.matches) {
      if (m.market.exchange === "kalshi")
        predictions.set(pairId(cid, m.market.venueMarketId), { relation: m.relation, confidence: m.confidence, reasoning: m.reasoning, ruleDifferences: m.ruleDifferences?.length ?? 0 });
    }
  }
  return { predictions, failed, callMs: Date.now() - started, fullMs: full.durationMs };
}

const f = (v: number) => v.toFixed(3);

/** The labels of pairs whose rules differ (what counts, a station, a bound on its edge). */
const ruleLabels = new Set(["criteria_differ", "different_station", "boundary_differs"]);

/** Prints the quality figures of one set, overall and per split. */
function report(set: LabelledSet, predictions: Map<string, Predicted>) {
  const inPart = (cid: string, split: "all", category?: string) => split === "all" && (category === undefined || set.categoryOf.get(cid) === category);
  const score = (split: "all", minConfidence: number, category?: string) => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const [pair, p] of predictions) {
      const cid = pair.split("|")[0] ?? "";
      if (!inPart(cid, split, category) || p.relation !== "identity" || p.confidence < minConfidence) continue;
      if (set.labelOf.get(pair)?.relation === "identity") tp += 1;
      else fp += 1;
    }
    for (const l of set.pairs) {
      if (l.relation !== "identity" || !inPart(l.polymarket.conditionId, split, category)) continue;
      const p = predictions.get(pairId(l.polymarket.conditionId, l.kalshi.ticker));
      if (p === undefined || p.relation !== "identity" || p.confidence < minConfidence) fn += 1;
    }
    const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
    const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
    const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    return { tp, fp, fn, precision, recall, f1 };
  };
  const row = (name: string, s: ReturnType<typeof score>) =>
    console.log(`  ${name.padEnd(24)} ${String(s.tp).padStart(4)} ${String(s.fp).padStart(4)} ${String(s.fn).padStart(4)}   ${f(s.precision)}     ${f(s.recall)}  ${f(s.f1)}`);
  for (const split of ["all"] as const) {
    const markets = [...set.categoryOf.keys()].filter((cid) => inPart(cid, split)).length;
    console.log(`
[${set.name} / served model, in sample: fitted on every fold; the honest figures are the folds'] ${markets} labelled Polymarket markets`);
    console.log(`  ${"identity".padEnd(24)}   TP   FP   FN   precision  recall  F1`);
    row("overall", score(split, 0));
    for (const c of [0.5, 0.8, 0.9, 0.95]) row(`minConfidence ${c}`, score(split, c));
    if (split === "all") for (const category of [...new Set(set.pairs.map((p) => p.category))].sort()) row(`  ${category}`, score(split, 0, category));
    const nested = set.pairs.filter((p) => (p.relation === "subset" || p.relation === "superset") && inPart(p.polymarket.conditionId, split));
    const nestedOk = nested.filter((p) => predictions.get(pairId(p.polymarket.conditionId, p.kalshi.ticker))?.relation === p.relation).length;
    console.log(`  subset/superset relation accuracy: ${nestedOk}/${nested.length}${nested.length > 0 ? ` = ${f(nestedOk / nested.length)}` : ""}`);
    // Pairs labelled as differing in their rules: how many answers name a rule difference, and
    // how many labelled identities carry one (each of those is a lost identity).
    const rulesDiffer = set.pairs.filter((p) => (p.differs_in ?? []).some((d) => ruleLabels.has(d)) && inPart(p.polymarket.conditionId, split));
    const found = rulesDiffer.filter((p) => (predictions.get(pairId(p.polymarket.conditionId, p.kalshi.ticker))?.ruleDifferences ?? 0) > 0).length;
    const identities = set.pairs.filter((p) => p.relation === "identity" && inPart(p.polymarket.conditionId, split));
    const onIdentities = identities.filter((p) => (predictions.get(pairId(p.polymarket.conditionId, p.kalshi.ticker))?.ruleDifferences ?? 0) > 0).length;
    console.log(`  rule differences found on pairs labelled ${[...ruleLabels].join("/")}: ${found}/${rulesDiffer.length}; on labelled identities: ${onIdentities}/${identities.length}`);
    // Reliability: of the claims of identity (then of subset/superset), how many agree with the label.
    for (const [kind, claims] of [["identity", ["identity"]], ["subset/superset", ["subset", "superset"]]] as const) {
      const buckets = [0, 0.5, 0.7, 0.8, 0.9, 0.95, 1.0001];
      const counts = buckets.slice(1).map(() => ({ n: 0, right: 0, sum: 0 }));
      for (const [pair, p] of predictions) {
        if (!inPart(pair.split("|")[0] ?? "", split) || !(claims as readonly string[]).includes(p.relation)) continue;
        const cell = counts[buckets.findIndex((lo, i) => p.confidence >= lo && p.confidence < (buckets[i + 1] ?? 2))];
        if (cell === undefined) continue;
        cell.n += 1;
        cell.sum += p.confidence;
        if (claimIsRight(set.labelOf.get(pair), p.relation)) cell.right += 1;
      }
      console.log(`  reliability of ${kind} claims: confidence bucket -> observed precision (count, mean confidence)`);
      counts.forEach((c, i) => {
        const lo = buckets[i] ?? 0;
        const hi = Math.min(1, buckets[i + 1] ?? 1);
        if (c.n > 0) console.log(`    [${lo.toFixed(2)}, ${hi.toFixed(2)}${hi === 1 ? "]" : ")"}  ${f(c.right / c.n)}  (${c.n}, ${f(c.sum / c.n)})`);
      });
    }
  }
}

/** --explain: every false identity and every missed one, with what the engine said. */
function explain(set: LabelledSet, predictions: Map<string, Predicted>) {
  console.log(`\n[${set.name}] false identities`);
  for (const [pair, p] of predictions) {
    if (p.relation !== "identity" || set.labelOf.get(pair)?.relation === "identity") continue;
    const l = set.labelOf.get(pair);
    console.log(`  fold ${set.foldOf.get(pair.split("|")[0] ?? "")} ${pair.split("|")[1]} (labelled ${l?.relation ?? "unrelated"}${l !== undefined ? `: ${l.polymarket.question} <> ${l.kalshi.title}` : ""}) ${p.confidence}: ${p.reasoning}`);
  }
  console.log(`\n[${set.name}] missed identities`);
  for (const l of set.pairs) {
    if (l.relation !== "identity") continue;
    const p = predictions.get(pairId(l.polymarket.conditionId, l.kalshi.ticker));
    if (p?.relation === "identity") continue;
    console.log(`  fold ${set.foldOf.get(l.polymarket.conditionId)} ${l.polymarket.question} <> ${l.kalshi.ticker} ${l.kalshi.title}: ${p === undefined ? "not matched" : `${p.relation} ${p.confidence}: ${p.reasoning}`}`);
  }
  console.log(`\n[${set.name}] subset, superset and disjoint pairs read otherwise`);
  for (const l of set.pairs) {
    if (l.relation !== "subset" && l.relation !== "superset" && l.relation !== "disjoint") continue;
    const p = predictions.get(pairId(l.polymarket.conditionId, l.kalshi.ticker));
    if (p?.relation === l.relation) continue;
    console.log(`  ${l.relation} ${l.polymarket.question} <> ${l.kalshi.ticker}: ${p === undefined ? "not matched" : `${p.relation} ${p.confidence}: ${p.reasoning}`}`);
  }
}

/**
 * The honest figures: k-fold cross-validation by topic over every labelled set (folds.ts). Every
 * labelled pair is scored once, by a decision fitted on the other folds at a threshold chosen on
 * them; per set and pooled, each fold's identity precision and recall, their mean and spread.
 */
async function folds(sets: SetName[]) {
  const load = () => loadLine("now");
  const started = Date.now();
  console.log(`\n==== cross-validation by topic: ${FOLDS} folds over ${sets.join(", ")} (${load()})`);
  // --rows-in re-scores the compared pairs a run wrote with --rows-out (the decision's features read again).
  const collected: Collected[] = values["rows-in"] !== undefined ? (JSON.parse(readFileSync(values["rows-in"], "utf8")) as Collected[]).filter((c) => (sets as string[]).includes(c.set)) : collectAll(sets);
  if (values["rows-out"] !== undefined) writeFileSync(values["rows-out"], JSON.stringify(collected));
  const { confidenceCeiling, decisionVector } = await import("@/lib/matching/decision");
  const labels = sets.map(setLabels);
  const reviews = reviewLabels(collected);
  const { candidates, extra } = withReviews(
    collected.filter((c) => c.identityCandidate).map((c) => ({ pair: c.pair, set: c.set, fold: c.fold, x: decisionVector(c.evidence), ceiling: confidenceCeiling(c.evidence), y: c.label?.relation === "identity" ? 1 : 0 })),
    reviews,
  );
  // A reviewed pair is never validated on, so it is no fold's labelled identity either.
  const identities = (set?: string) => {
    const out = Array.from({ length: FOLDS }, () => 0);
    for (const l of labels) if (set === undefined || l.set === set) for (const p of l.pairs) if (p.label.relation === "identity" && !reviews.has(p.pair)) out[p.fold] = (out[p.fold] ?? 0) + 1;
    return out;
  };
  const cv = crossValidate(candidates, identities(), extra);
  const row = (name: string, tp: number, fp: number, fn: number, extra = "") => {
    const p = tp + fp === 0 ? 1 : tp / (tp + fp);
    const r = tp + fn === 0 ? 1 : tp / (tp + fn);
    console.log(`  ${name.padEnd(22)} ${String(tp).padStart(4)} ${String(fp).padStart(4)} ${String(fn).padStart(4)}   ${f(p)}     ${f(r)}${extra}`);
    return { p, r };
  };
  for (const set of [...sets, "all"] as const) {
    const inSet = (x: { set: string }) => set === "all" || x.set === set;
    const ids = identities(set === "all" ? undefined : set);
    console.log(`\n[${set} / folds]  identity            TP   FP   FN   precision  recall   (at minConfidence 0.9: TP/FP)`);
    const ps: number[] = [];
    const rs: number[] = [];
    let tp = 0;
    let fp = 0;
    let tp90 = 0;
    let fp90 = 0;
    for (const fold of cv.folds) {
      const claims = settleClaims(cv.scored.filter((c) => c.fold === fold.fold && c.p >= fold.threshold)).filter(inSet);
      const t = claims.filter((c) => c.y === 1).length;
      const at90 = claims.filter((c) => c.p >= 0.9);
      const t90 = at90.filter((c) => c.y === 1).length;
      const { p, r } = row(`fold ${fold.fold} (threshold ${fold.threshold.toFixed(2)})`, t, claims.length - t, (ids[fold.fold] ?? 0) - t, `   (${t90}/${at90.length - t90})`);
      if (claims.length > 0 || (ids[fold.fold] ?? 0) > 0) {
        ps.push(p);
        rs.push(r);
      }
      tp += t;
      fp += claims.length - t;
      tp90 += t90;
      fp90 += at90.length - t90;
      // --explain: each false claim of the fold, with its fitted chance and the evidence the decision read.
      if (values.explain === true && set !== "all") {
        for (const c of claims.filter((x) => x.y === 0)) {
          const row = collected.find((x) => x.pair === c.pair);
          console.log(`    false identity p=${c.p.toFixed(3)} ${c.pair} label=${row?.label?.relation ?? "unlisted"} evidence=${JSON.stringify(row?.evidence ?? {})}`);
        }
        // Each labelled identity of the fold not claimed, and why: never compared, answered on a
        // conflict, scored below the fold's threshold, or claimed and let go as ambiguous.
        const right = new Set(claims.filter((c) => c.y === 1).map((c) => c.pair));
        for (const l of labels.find((x) => x.set === set)?.pairs ?? []) {
          if (l.fold !== fold.fold || l.label.relation !== "identity" || right.has(l.pair) || reviews.has(l.pair)) continue;
          const row = collected.find((x) => x.pair === l.pair);
          const p = cv.scored.find((x) => x.pair === l.pair)?.p;
          const why = row === undefined ? "not compared" : !row.identityCandidate ? `answered ${row.relation} on a conflict` : p !== undefined && p >= fold.threshold ? `p=${p.toFixed(3)}, ambiguous` : `p=${p?.toFixed(3) ?? "?"} below the threshold`;
          const evidence = row === undefined ? "" : ` evidence=${JSON.stringify(Object.fromEntries(Object.entries(row.evidence).filter(([, v]) => v !== 0)))}`;
          console.log(`    missed identity (${why}) ${l.label.polymarket.question} <> ${l.label.kalshi.ticker}${evidence}${row === undefined ? "" : `\n      ${row.text}`}`);
        }
      }
    }
    const total = ids.reduce((s, n) => s + n, 0);
    row("every fold", tp, fp, total - tp, `   (${tp90}/${fp90})`);
    console.log(`  mean over folds: precision ${f(mean(ps))} ± ${f(spread(ps))} (min ${f(Math.min(...ps))}), recall ${f(mean(rs))} ± ${f(spread(rs))} (min ${f(Math.min(...rs))})`);
    const rules = ruleFigures(collected.filter(inSet), labels.filter((l) => set === "all" || l.set === set), ruleLabels);
    console.log(`  rule differences named on pairs labelled ${[...ruleLabels].join("/")}: ${rules.rulesNamed}/${rules.rulesDiffer}${rules.rulesDiffer > 0 ? ` = ${f(rules.rulesNamed / rules.rulesDiffer)}` : ""}; on labelled identities: ${rules.identitiesNamed}/${rules.identities}`);
    console.log(`  subset/superset relation accuracy: ${rules.nestedRight}/${rules.nested}${rules.nested > 0 ? ` = ${f(rules.nestedRight / rules.nested)}` : ""}`);
  }
  console.log(`\n  threshold chosen on the pooled out-of-fold scores (the product's): ${cv.pooled.threshold}; ${((Date.now() - started) / 1000).toFixed(0)} s (${load()})`);
}

async function quality(name: SetName) {
  const { closeDatabase } = await import("@/lib/db");
  const set = loadSet(name);
  const { predictions, failed, callMs, fullMs } = await predict(set);
  console.log(`
==== ${name} set (${path.relative(process.cwd(), set.dir)}): ${set.categoryOf.size} Polymarket markets queried in ${callMs} ms, failed calls: ${failed}; full pass ${fullMs} ms`);
  report(set, predictions);
  if (values.explain === true) explain(set, predictions);
  await closeDatabase();
}

async function speed() {
  const { upsertCatalog } = await import("@/lib/catalog/store");
  const { eventUuid, marketUuid } = await import("@/lib/catalog/ids");
  const { openDatabase } = await import("@/lib/db");
  const { runMatching } = await import("@/lib/matching/engine");
  const { marketMatches: matchesTable } = await import("@/lib/db/schema");
  const { and, eq, isNull, sql } = await import("drizzle-orm");
  const perVenue = Number(values.markets);
  const changedCount = Number(values.changed);
  // At catalog scale the service runs on PostgreSQL (the embedded PGlite is the single-process demo
  // store): the scale passes run on a throwaway database of BENCH_PG_URL's server.
  const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
  const database = `bench_matching_${process.pid}`;
  await admin.unsafe(`create database ${database}`);
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const handle = await openDatabase({ url: url.toString() });
  try {
    const cities = ["Miami", "Austin", "Chicago", "Denver", "Houston", "Dallas", "Phoenix", "Seattle", "Boston", "Atlanta", "Philadelphia", "Los Angeles", "San Francisco", "Las Vegas", "New Orleans", "Minneapolis", "Detroit", "Nashville", "Portland", "San Diego", "San Antonio"];
    const assets = ["Bitcoin", "Ethereum", "Solana", "XRP", "Dogecoin", "Cardano", "Litecoin", "Hyperliquid"];
    const monthsLong = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
    const monthsShort = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    type Spec = { kind: "temp" | "price"; subject: string; day: number; level: number };
    const specs: Spec[] = [];
    for (let day = 0; specs.length < perVenue; day += 1) {
      for (const city of cities) for (let level = 0; level < 6 && specs.length < perVenue; level += 1) specs.push({ kind: "temp", subject: city, day, level });
      for (const asset of assets) for (let level = 0; level < 6 && specs.length < perVenue; level += 1) specs.push({ kind: "price", subject: asset, day, level });
    }
    const dateOf = (day: number) => new Date(Date.UTC(2026, 0, 1) + (day % 730) * 86_400_000);
    const events = (venue: "polymarket" | "kalshi", version: (i: number) => number) => {
      const byEvent = new Map<string, { title: string; markets: Array<{ id: string; title: string; label: string; description: string; price: number; res: Date }> }>();
      specs.forEach((s, i) => {
        const d = dateOf(s.day);
        const long = `${monthsLong[d.getUTCMonth()]} ${d.getUTCDate()}`;
        const short = `${monthsShort[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
        const shift = version(i);
        const lo = 80 + 2 * s.level + shift;
        const strike = (1 + s.level + shift) * 10_000;
        let eventTitle: string;
        let title: string;
        let label: string;
        let description: string;
        if (venue === "polymarket") {
          eventTitle = s.kind === "temp" ? `Highest temperature in ${s.subject} on ${long}?` : `${s.subject} above ___ on ${long}?`;
          const q = s.kind === "temp" ? `Will the highest temperature in ${s.subject} be ${lo}-${lo + 1}°F on ${long}?` : `Will the price of ${s.subject} be above $${strike.toLocaleString("en-US")} on ${long}?`;
          title = `${eventTitle} - ${q}`;
          label = s.kind === "temp" ? `${lo}-${lo + 1}°F` : strike.toLocaleString("en-US");
          description = s.kind === "temp" ? `Resolves to the range containing the highest temperature in ${s.subject} on ${long}, ${d.getUTCFullYear()}.` : `Resolves Yes if the 12:00 PM ET candle on ${long}, ${d.getUTCFullYear()} closes above the price in the title.`;
        } else {
          eventTitle = s.kind === "temp" ? `Highest temperature in ${s.subject} on ${short}?` : `${s.subject} price on ${short} at 12pm EST?`;
          title = eventTitle;
          label = s.kind === "temp" ? `${lo}° to ${lo + 1}°` : `$${strike.toLocaleString("en-US")} or above`;
          description = s.kind === "temp" ? `If the highest temperature recorded in ${s.subject} for ${short} is ${lo} to ${lo + 1}°, then the market resolves to Yes.` : `If the index is above ${(strike - 0.01).toFixed(2)} at 12 PM EST on ${short}, then the market resolves to Yes.`;
        }
        const key = `${venue}-${s.kind}-${s.subject}-${s.day}`;
        const event = byEvent.get(key) ?? { title: eventTitle, markets: [] };
        event.markets.push({ id: `${venue}-${i}`, title, label, description, price: ((i * 7919) % 97) / 100 + 0.01, res: d });
        byEvent.set(key, event);
      });
      const now = new Date();
      return [...byEvent.entries()].map(([eventKey, e]) => {
        const eventId = eventUuid(venue, eventKey);
        return {
          event: { id: eventId, venue, venueEventId: eventKey, title: e.title, slug: null, description: null, category: "Weather", venueCategory: null, tags: [], image: null, url: null, volume24h: 0, volume: null, closed: false, resolutionDate: null, lastSeenAt: now },
          markets: e.markets.map((m) => ({
            id: marketUuid(venue, m.id), eventId, venue, venueMarketId: m.id, title: m.title, slug: null, description: m.description, category: "Weather",
            outcomes: [{ outcomeId: `${m.id}-y`, label: m.label, price: m.price, priceChange24h: 0 }, { outcomeId: `${m.id}-n`, label: `Not ${m.label}`, price: 1 - m.price, priceChange24h: 0 }],
            outcomeIds: [`${m.id}-y`, `${m.id}-n`], volume24h: 0, volume: null, liquidity: null, openInterest: null, status: "active", closed: false,
            resolutionDate: m.res, contractAddress: null, url: null, image: null, lastSeenAt: now,
          })),
        };
      });
    };
    if (values.memory === true) {
      await memoryByStructure([...events("polymarket", () => 0), ...events("kalshi", () => 0)], perVenue);
      return;
    }
    let t = Date.now();
    await upsertCatalog(handle.db, events("polymarket", () => 0));
    await upsertCatalog(handle.db, events("kalshi", () => 0));
    const seedMs = Date.now() - t;
    const fullStarted = Date.now();
    // Where a full pass's memory goes: the process's memory at every progress report, the most per
    // phase; with --heap-snapshot FILE, a V8 heap snapshot when storing starts (every market's
    // features, the candidate index and every verdict are live then).
    // With node --expose-gc (attribution runs, not timed ones), the heap still live when each phase
    // starts, after a forced GC: what the pass holds from the phases before it.
    const gc = (globalThis as { gc?: () => void }).gc;
    const memory = new Map<string, { rss: number; heapUsed: number; external: number; arrayBuffers: number; live: number }>();
    let snapshotTaken = false;
    const sample = (phase: string) => {
      let live = memory.get(phase)?.live ?? NaN;
      if (!memory.has(phase) && gc !== undefined) {
        gc();
        live = process.memoryUsage().heapUsed;
      }
      const m = process.memoryUsage();
      const cell = memory.get(phase) ?? { rss: 0, heapUsed: 0, external: 0, arrayBuffers: 0, live };
      memory.set(phase, { rss: Math.max(cell.rss, m.rss), heapUsed: Math.max(cell.heapUsed, m.heapUsed), external: Math.max(cell.external, m.external), arrayBuffers: Math.max(cell.arrayBuffers, m.arrayBuffers), live });
      if (phase === "storing" && !snapshotTaken && values["heap-snapshot"] !== undefined) {
        snapshotTaken = true;
        process.stderr.write(`  heap snapshot written to ${writeHeapSnapshot(values["heap-snapshot"])}\n`);
      }
    };
    const full = await runMatching(handle.db, {
      full: true,
      onProgress: (p) => {
        sample(p.phase);
        process.stderr.write(`  full pass ${((Date.now() - fullStarted) / 1000).toFixed(1)} s: ${p.phase} ${p.done}${p.total === undefined ? "" : `/${p.total}`}\n`);
      },
    });
    // Every synthetic Polymarket market has its Kalshi twin: how many of those identities the pass found.
    const [identities] = await handle.db
      .select({ n: sql<number>`count(*)::int` })
      .from(matchesTable)
      .where(and(eq(matchesTable.relation, "identity"), isNull(matchesTable.validTo)));
    // With --claims-out FILE: every current match after each pass (pair, relation, confidence,
    // reasoning, differences, in pair order), to show two engines' passes conclude the same.
    const claimLines: string[] = [];
    const keepClaims = async (pass: string) => {
      if (values["claims-out"] === undefined) return;
      const rows = await handle.db
        .select({ a: matchesTable.marketA, b: matchesTable.marketB, relation: matchesTable.relation, confidence: matchesTable.confidence, reasoning: matchesTable.reasoning, differences: matchesTable.differences })
        .from(matchesTable)
        .where(isNull(matchesTable.validTo))
        .orderBy(matchesTable.marketA, matchesTable.marketB);
      for (const row of rows) claimLines.push(JSON.stringify({ pass, ...row }));
    };
    await keepClaims("full");
    // 1,000 Kalshi markets move their threshold one step: new text, new verdicts.
    const step = Math.max(1, Math.floor(perVenue / changedCount));
    const changed = new Set(Array.from({ length: Math.min(changedCount, perVenue) }, (_, i) => i * step));
    const changedEvents = events("kalshi", (i) => (changed.has(i) ? 1 : 0)).filter((e) => e.markets.some((m) => changed.has(Number(m.venueMarketId.split("-")[1]))));
    await upsertCatalog(handle.db, changedEvents);
    t = Date.now();
    const incremental = await runMatching(handle.db, {
      onProgress: (p) => process.stderr.write(`  incremental pass ${((Date.now() - t) / 1000).toFixed(1)} s: ${p.phase} ${p.done}${p.total === undefined ? "" : `/${p.total}`}\n`),
    });
    const incrementalMs = Date.now() - t;
    await keepClaims("incremental");
    if (values["claims-out"] !== undefined) writeFileSync(values["claims-out"], `${claimLines.join("\n")}\n`);
    const rssMb = Math.round(process.resourceUsage().maxRSS / 1024);
    console.log(`\nSynthetic catalogs: ${perVenue.toLocaleString("en-US")} markets per venue (seeded in ${(seedMs / 1000).toFixed(1)} s, PostgreSQL)`);
    console.log(`full pass         ${(full.durationMs / 1000).toFixed(1)} s   read=${full.marketsRead} compared=${full.pairsCompared} matches=${full.matchesFound}   (target <= 600 s)`);
    console.log(`synthetic identities found: ${identities?.n ?? 0} of ${perVenue} mirrored pairs`);
    console.log(`incremental pass  ${(incrementalMs / 1000).toFixed(1)} s   read=${incremental.marketsRead} opened=${incremental.opened} closed=${incremental.closed} confirmed=${incremental.confirmed}   (target <= 10 s)`);
    console.log(`peak RSS          ${rssMb} MB`);
    const mb = (n: number) => String(Math.round(n / 1048576)).padStart(6);
    console.log(`full pass memory by phase (most at any progress report, MB; live: heap after a forced GC as the phase starts, with node --expose-gc):\n  phase            rss  heapUsed  external  arrayBuffers    live`);
    for (const [phase, m] of memory) console.log(`  ${phase.padEnd(12)} ${mb(m.rss)}    ${mb(m.heapUsed)}    ${mb(m.external)}        ${mb(m.arrayBuffers)}  ${Number.isNaN(m.live) ? "     -" : mb(m.live)}`);
  } finally {
    await handle.close();
    await admin.unsafe(`drop database if exists ${database} with (force)`);
    await admin.end();
  }
}

/**
 * --memory: where a full pass's memory goes, structure by structure, in process over the synthetic
 * catalogs (no store): each structure a pass holds is built and kept as runMatching keeps it, and the
 * JS heap is read after a forced GC (run with node --expose-gc; without it the readings include
 * garbage). Lazily built tables (gazetteers, aliases, WordNet) are loaded first and counted apart.
 */
async function memoryByStructure(events: Array<{ event: { title: string; category: string | null }; markets: Array<{ venueMarketId: string; venue: string; eventId: string; title: string; description: string | null; outcomes: Array<{ label: string }>; resolutionDate: Date | null }> }>, perVenue: number) {
  const { extractFeatures } = await import("@/lib/matching/extract");
  const { classifyPair } = await import("@/lib/matching/classify");
  const { CandidateIndex } = await import("@/lib/matching/candidates");
  const { WeakVerdicts } = await import("@/lib/matching/policy");
  type Features = ReturnType<typeof extractFeatures>;
  const gc = (globalThis as { gc?: () => void }).gc;
  const heap = () => {
    gc?.();
    gc?.();
    return process.memoryUsage().heapUsed / 1048576;
  };
  const inputs = events.flatMap((e) =>
    e.markets.map((m) => ({ id: m.venueMarketId, venue: m.venue, eventId: m.eventId, category: e.event.category ?? "", title: m.title, eventTitle: e.event.title, yesLabel: m.outcomes[0]?.label ?? null, description: m.description, resolutionDate: m.resolutionDate })),
  );
  const [x, y] = [inputs[0], inputs[inputs.length - 1]];
  if (x !== undefined && y !== undefined) classifyPair(extractFeatures({ ...x, id: "warm-a" }), extractFeatures({ ...y, id: "warm-b" }), () => 1);
  const base = heap();
  const fresh = new Map<string, Features>();
  for (const input of inputs) fresh.set(input.id, extractFeatures(input));
  const afterFeatures = heap();
  const index = new CandidateIndex([...fresh.values()].map((f) => ({ id: f.id, venue: f.venue, keys: f.keys })));
  const afterIndex = heap();
  const pairs = new Map<string, [string, string]>();
  for (const f of fresh.values()) for (const other of index.candidates(f, { limit: 12 })) pairs.set(f.id < other ? `${f.id}|${other}` : `${other}|${f.id}`, f.id < other ? [f.id, other] : [other, f.id]);
  const afterPairs = heap();
  const held = (mode: "every" | "pass") => {
    const strong = new Map<string, unknown>();
    const weak = new WeakVerdicts<PolicyVerdict>(4);
    for (const [key, [a, b]] of pairs) {
      const fa = fresh.get(a);
      const fb = fresh.get(b);
      if (fa === undefined || fb === undefined || fa.venue === fb.venue) continue;
      const r = classifyPair(fa, fb, (t) => index.idf(t), index);
      if (r === null) continue;
      if (mode === "every") strong.set(key, { a, b, ...r });
      const verdict = { a, b, ...r, reasoning: "" };
      if (r.relation === "overlap" || r.relation === "disjoint") weak.add(key, verdict);
      else strong.set(key, verdict);
    }
    const mbHeld = heap() - afterPairs;
    return { mbHeld, count: strong.size + weak.size, keep: [strong, weak] };
  };
  const every = held("every");
  every.keep.length = 0;
  const pass = held("pass");
  const markets = inputs.length;
  const row = (name: string, mb: number) => console.log(`  ${name.padEnd(58)} ${mb.toFixed(1).padStart(8)} MB  ${((mb * 1024) / markets).toFixed(2).padStart(7)} KB a market`);
  console.log(`\nWhere a full pass's heap goes, ${perVenue.toLocaleString("en-US")} synthetic markets per venue, ${pairs.size.toLocaleString("en-US")} candidate pairs (forced GC ${gc === undefined ? "unavailable: run with node --expose-gc" : "before each reading"}; heap before ${base.toFixed(0)} MB):`);
  row("features of every market", afterFeatures - base);
  row("candidate index", afterIndex - afterFeatures);
  row("candidate pairs", afterPairs - afterIndex);
  row(`every compared pair's verdict with its text (before; ${every.count.toLocaleString("en-US")})`, every.mbHeld);
  row(`verdicts a pass holds now (${pass.count.toLocaleString("en-US")}: strong, and weak ones still kept)`, pass.mbHeld);
}

/** A small seeded generator (mulberry32): the same sample on every run of one engine. */
function seeded(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

async function catalogs() {
  if (!existsSync(path.join(catalogsDir, "LABELS.json"))) {
    console.error(
      `The whole-catalog mode reads the two real catalogs of catalogs-2025-02 (36 MB, not kept in the repository); none at ${catalogsDir}. Set MATCHING_CATALOGS_DIR to their directory.`,
    );
    process.exit(2);
  }
  const { closeDatabase } = await import("@/lib/db");
  const { runMatching } = await import("@/lib/matching/engine");
  const { marketMatches: matchesTable, markets } = await import("@/lib/db/schema");
  const { and, eq, isNull } = await import("drizzle-orm");
  const { alias } = await import("drizzle-orm/pg-core");
  const { ingestSet } = await import("../matching/ingest");
  const set = loadSet("catalogs");
  let t = Date.now();
  const db = await ingestSet(set);
  const ingestMs = Date.now() - t;
  t = Date.now();
  const full = await runMatching(db, { full: true });
  const rssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  const ma = alias(markets, "ma");
  const mb = alias(markets, "mb");
  const rows = await db
    .select({
      relation: matchesTable.relation,
      confidence: matchesTable.confidence,
      reasoning: matchesTable.reasoning,
      aVenue: ma.venue,
      aId: ma.venueMarketId,
      aCid: ma.contractAddress,
      aTitle: ma.title,
      aRules: ma.description,
      aEnd: ma.resolutionDate,
      bVenue: mb.venue,
      bId: mb.venueMarketId,
      bCid: mb.contractAddress,
      bTitle: mb.title,
      bRules: mb.description,
      bEnd: mb.resolutionDate,
    })
    .from(matchesTable)
    .innerJoin(ma, eq(ma.id, matchesTable.marketA))
    .innerJoin(mb, eq(mb.id, matchesTable.marketB))
    .where(and(isNull(matchesTable.validTo), eq(matchesTable.relation, "identity")));
  type Side = { id: string; cid: string | null; title: string; rules: string | null; end: Date | null };
  const claims = rows.map((r) => {
    const a: Side = { id: r.aId, cid: r.aCid, title: r.aTitle, rules: r.aRules, end: r.aEnd };
    const b: Side = { id: r.bId, cid: r.bCid, title: r.bTitle, rules: r.bRules, end: r.bEnd };
    const [pm, kx] = r.aVenue === "polymarket" ? [a, b] : [b, a];
    return { pm, kx, confidence: r.confidence, reasoning: r.reasoning, pair: pairId(pm.cid ?? "", kx.id) };
  });
  const claimed = new Set(claims.map((c) => c.pair));
  const labelledIdentities = set.pairs.filter((p) => p.relation === "identity");
  const found = labelledIdentities.filter((p) => claimed.has(pairId(p.polymarket.conditionId, p.kalshi.ticker))).length;
  const onLabelled = claims.filter((c) => set.labelOf.has(c.pair));
  const wrongOnLabelled = onLabelled.filter((c) => set.labelOf.get(c.pair)?.relation !== "identity").length;
  console.log(`
==== whole catalogs (${catalogsDir}): ingested in ${(ingestMs / 1000).toFixed(1)} s
full pass          ${(full.durationMs / 1000).toFixed(1)} s   markets=${full.marketsRead} compared=${full.pairsCompared} matches=${full.matchesFound}   peak RSS ${rssMb} MB
identities claimed ${claims.length} (at minConfidence 0.9: ${claims.filter((c) => c.confidence >= 0.9).length})
labelled pairs inside: identities found ${found} of ${labelledIdentities.length} (recall ${f(found / Math.max(1, labelledIdentities.length))}); claims on labelled pairs ${onLabelled.length}, of which labelled otherwise ${wrongOnLabelled}`);
  if (values["claims-out"] !== undefined) writeFileSync(values["claims-out"], JSON.stringify(claims.map((c) => ({ polymarket: c.pm.id, kalshi: c.kx.id, confidence: c.confidence, reasoning: c.reasoning }))));
  const n = Math.min(Number(values.sample), claims.length);
  const random = seeded(Number(values.seed));
  const pool = [...claims].sort((x, y) => (x.pair < y.pair ? -1 : 1));
  for (let i = pool.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j] as (typeof pool)[number], pool[i] as (typeof pool)[number]];
  }
  const clip = (s: string | null, max: number) => (s ?? "").replace(/\s+/g, " ").slice(0, max);
  const day = (d: Date | null) => (d === null ? "none" : new Date(d).toISOString().slice(0, 10));
  console.log(`\nA seeded sample of ${n} claims (--seed ${values.seed}), to be read by hand:`);
  pool.slice(0, n).forEach((c, i) => {
    const label = set.labelOf.get(c.pair)?.relation;
    console.log(`
#${i + 1}  confidence ${c.confidence}${label === undefined ? "" : `  (labelled ${label})`}
  polymarket ${c.pm.id}  ends ${day(c.pm.end)}: ${c.pm.title}
    rules: ${clip(c.pm.rules, 500)}
  kalshi ${c.kx.id}  ends ${day(c.kx.end)}: ${c.kx.title}
    rules: ${clip(c.kx.rules, 500)}
  engine: ${c.reasoning}`);
  });
  await closeDatabase();
}

// The embedded store is opened from DATA_DIR at first use: each part runs in a child with its own.
async function parent(): Promise<number> {
  const parts = [...(values.routes === true ? (values.sets ?? "").split(",").filter((s) => s !== "") : []), ...(values.catalogs === true ? ["catalogs"] : []), ...(values.speed === true ? ["speed"] : [])];
  let status = 0;
  const sets = setNames.filter((n) => (values.sets ?? "").split(",").includes(n));
  if (values.folds === true && sets.length > 0) await folds(sets);
  for (const part of parts) {
    console.log(`bench:matching ${part}: ${loadLine("at start")}`);
    const { dir, remove } = benchDataDir("matching");
    const child = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
      stdio: "inherit",
      env: { ...process.env, DATA_DIR: dir, BRIER_BENCH_MATCHING_PART: part, LOG_LEVEL: "warn" },
    });
    remove();
    if (child.status !== 0) status = child.status ?? 1;
  }
  return status;
}

async function main() {
  if (process.env.BRIER_BENCH_MATCHING_PART === undefined) process.exit(await parent());
  const part = process.env.BRIER_BENCH_MATCHING_PART ?? "";
  if (part === "speed") await speed();
  else if (part === "catalogs") await catalogs();
  else if ((setNames as readonly string[]).includes(part)) await quality(part as SetName);
  else throw new Error(`unknown part ${part}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
