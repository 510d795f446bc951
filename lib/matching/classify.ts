/**
 * The orchestrator: compares two markets attribute by attribute (the comparators of compare/),
 * combines their answers into the pair's relation, turns them into evidence (compare/features.ts)
 * for the fitted decision, and renders the reasoning text for display. The differences found are
 * returned as data (`differences`, `ruleDifferences`).
 */
import { calibrated, type Evidence } from "./confidence";
import { identityProbability, identityThreshold } from "./decision";
import type { Features } from "./extract";
import { canonicalTokens, findConcepts } from "./text";
import { compareContexts, typeLabel } from "./compare/context";
import { evidenceOf, type Comparison } from "./compare/features";
import { compareForm } from "./compare/form";
import { compareOption } from "./compare/option";
import { compareQuantity, describeInterval } from "./compare/quantity";
import { compareRules } from "./compare/rules";
import { compareSeasons, compareTime, describeTime, describeTimeFilled } from "./compare/time";
import { MIN_TOPIC_SIMILARITY, topicSimilarity, type Idf } from "./compare/topic";
import { combine, type Cmp, type Difference } from "./compare/types";
import { compareWording, objectsDiffer, plainWording } from "./compare/words";
import { describeDifference, describeRuleDifference, renderReasoning, type Tail } from "./reasoning";
import type { RuleDifference } from "./rules";
import { type Relation } from "./relations";

export { invertRelation, relations, type Relation } from "./relations";
export { describeInterval } from "./compare/quantity";
export { describeTime } from "./compare/time";
export { comparePicks } from "./compare/option";
export { unmatchedNames } from "./compare/names";
import { namesImplied, wonFinal, type Travels } from "./compare/names";
export type { Travels } from "./compare/names";
export { unmatchedWords, wordDifferences } from "./compare/words";
export { MIN_TOPIC_SIMILARITY, topicSimilarity, type Idf } from "./compare/topic";

export interface PairResult {
  /** Read from market A to market B: subset = Yes on A implies Yes on B. */
  relation: Relation;
  confidence: number;
  /** The comparison as text, for display. */
  reasoning: string;
  /** The reasoning's clauses and closing, from which `reasoning` was rendered (to re-render it). */
  notes: string[];
  tail: Tail;
  /** The venues the reasoning names the sides by (A's, B's). */
  venues: { a: string; b: string };
  /** What the two state differently or one side only, as data (A's values first). */
  differences: Difference[];
  /** What the confidence was computed from (kept for fitting it, not stored). */
  evidence: Evidence;
  /** Rule terms both markets state differently, each side's wording (A, then B). */
  ruleDifferences: RuleDifference[];
  /** Nothing conflicts and the relation was decided by the fitted identity model (kept for fitting it). */
  identityCandidate: boolean;
}

const cmpToRelation: Record<Cmp, Relation> = {
  equal: "identity",
  sub: "subset",
  sup: "superset",
  disjoint: "disjoint",
  overlap: "overlap",
};

/** The rule terms two markets state differently, as a note of the reasoning and as differences. */
function namedRules(ruleDifferences: RuleDifference[], A: string, B: string): { notes: string[]; differences: Difference[] } {
  return {
    notes: ruleDifferences.length > 0 ? [`rules differ (${ruleDifferences.map((d) => describeRuleDifference(d, A, B)).join("; ")})`] : [],
    differences: ruleDifferences.map((d) => ({ attribute: "rules", state: "conflict", label: d.term, a: [d.a], b: [d.b] })),
  };
}

/**
 * A pair answered `overlap` on a conflict, before the decision: its evidence counts the plain
 * reading of the wording (read only here: most pairs reach the full reading instead).
 */
function related(a: Features, b: Features, comparison: Comparison, notes: string[], tail: Tail, differences: Difference[]): PairResult {
  const A = a.venue;
  const B = b.venue;
  comparison.wording = plainWording(a, b);
  // The settlement records are compared here too: the pair is already at most an overlap, and its
  // rules may differ besides (another act, what counts, when a value is read), which an analyst
  // reads beside the conflict that settled it. A bound is compared only on the same number.
  const rules = (comparison.rules = compareRules(a, b, "overlap", comparison.quantity?.cmp ?? "overlap"));
  const ruleDifferences = rules.differences;
  const named = namedRules(ruleDifferences, A, B);
  notes = [...notes, ...named.notes];
  differences = [...differences, ...named.differences];
  const evidence = evidenceOf(comparison);
  return {
    relation: "overlap",
    confidence: calibrated("overlap", evidence),
    evidence,
    ruleDifferences,
    identityCandidate: false,
    notes,
    tail,
    differences,
    venues: { a: A, b: B },
    reasoning: renderReasoning(notes, tail, A, B),
  };
}

/**
 * Classifies the pair (A -> B) by comparing what was extracted: context (place, office,
 * competition, asset, measure), the named option, the threshold and its direction, the deadline
 * or instant, negation and resolution sources. Null when the two are not about the same thing.
 */
export function classifyPair(a: Features, b: Features, idf: Idf, travels?: Travels): PairResult | null {
  const sim = topicSimilarity(a, b, idf);
  if (sim < MIN_TOPIC_SIMILARITY) return null;
  // The reasoning names the sides by venue: it is read from either side of the stored pair.
  const A = a.venue;
  const B = b.venue;
  const notes: string[] = [];
  const differences: Difference[] = [];
  const c: Comparison = { similarity: sim, wording: { names: { a: [], b: [] }, words: { a: [], b: [] }, paraphrased: { a: [], b: [] } }, context: compareContexts(a, b) };

  // Context: another place, office or measure makes related questions that can both resolve Yes.
  const context = c.context;
  if (context.agreed.length > 0) notes.push(`same ${[...new Set(context.agreed)].slice(0, 4).join(", ")}`);
  const other = (v: string[]) => (v.length === 0 ? "none" : v.join("/"));
  for (const d of context.oneSide) notes.push(`${typeLabel[d.type]} on one side only: ${A} ${other(d.a)}, ${B} ${other(d.b)}`);
  if (context.diffs.length > 0) {
    if (context.diffs.length > 1 || sim < 0.5) return null;
    const d = context.diffs[0];
    if (d === undefined) return null;
    c.contextConflict = true;
    const diff: Difference = { attribute: "context", state: "conflict", label: typeLabel[d.type], a: d.a, b: d.b };
    return related(a, b, c, [describeDifference(diff, A, B), ...(notes.length > 0 ? notes : ["same topic"])], { kind: "relatedContext" }, [diff]);
  }

  // The named option Yes stands for.
  const option = (c.option = compareOption(a, b));
  let pickCmp: Cmp = "equal";
  if (option.state === "conflict") {
    pickCmp = "disjoint";
    const diff: Difference = { attribute: "option", state: "conflict", a: option.a ?? [], b: option.b ?? [] };
    differences.push(diff);
    notes.push(describeDifference(diff, A, B));
  } else if (option.state === "same") {
    notes.push(`same option: ${(option.a ?? []).join(" ")}${option.abbreviated ? ` = ${(option.b ?? []).join(" ")}` : ""}`);
  } else if (option.state === "oneSide") {
    if (!option.inOtherQuestion) return null;
    notes.push(`option ${(option.a ?? option.b ?? []).join(" ")} named on both sides`);
  }

  // Threshold or range.
  const quantity = (c.quantity = compareQuantity(a.interval, b.interval));
  if (quantity.cmp === null) return null; // on one side only, or in units that do not compare
  let numCmp: Cmp = quantity.cmp;
  if (quantity.a !== null && quantity.b !== null) {
    notes.push(`${numCmp === "equal" ? "same threshold" : "thresholds"}: ${A} ${describeInterval(quantity.a)} vs ${B} ${describeInterval(quantity.b)}${quantity.tick ? " (one tick apart)" : ""}`);
    if (numCmp !== "equal") differences.push({ attribute: "quantity", state: "conflict", a: [describeInterval(quantity.a)], b: [describeInterval(quantity.b)] });
  }

  // Time. A date one question states and the other leaves out may be stated in the other's rules,
  // or be where the other resolves: the undated question is then about the same time.
  const time = (c.time = compareTime(a, b, quantity.state === "absent" ? null : numCmp));
  if (time.filled !== null) notes.push(describeTimeFilled(time.filled));
  let timeCmp: Cmp = "equal";
  if (time.a !== null && time.b !== null) {
    const [timeA, timeB] = [time.a, time.b];
    const timeDiff = (): Difference => ({ attribute: "time", state: "conflict", a: [describeTime(timeA)], b: [describeTime(timeB)] });
    if (time.kind === "value") {
      if (time.state === "conflict") {
        const diff = timeDiff();
        return related(a, b, c, [...notes, describeDifference(diff, A, B)], { kind: "otherTime" }, [...differences, diff]);
      }
      notes.push(`same time ${describeTime(time.a)}`);
    } else if (time.kind === "touchVsAt") {
      if (time.outside) return null;
      timeCmp = time.cmp;
      numCmp = time.quantityCmp ?? numCmp;
      const at = a.mode === "at" ? time.a : time.b;
      const touch = a.mode === "at" ? time.b : time.a;
      notes.push(`the price ${describeTime(at)} (${a.mode === "at" ? A : B}) vs reaching a level ${describeTime(touch)} (${a.mode === "at" ? B : A})`);
    } else {
      timeCmp = time.cmp;
      if (timeCmp === "disjoint") {
        const diff = timeDiff();
        return related(a, b, c, [...notes, describeDifference(diff, A, B)], { kind: "relatedTime" }, [...differences, diff]);
      }
      notes.push(timeCmp === "equal" ? `same time ${describeTime(time.a)}` : `${A} ${describeTime(time.a)} vs ${B} ${describeTime(time.b)}`);
      if (timeCmp !== "equal") differences.push({ attribute: "time", state: "conflict", label: "window", a: [describeTime(time.a)], b: [describeTime(time.b)] });
    }
  } else if (time.state === "oneSide") {
    notes.push("a date on one side only");
  }
  const season = (c.season = compareSeasons(a, b));
  if (season.state === "conflict") {
    const diff: Difference = { attribute: "season", state: "conflict", a: season.a, b: season.b };
    return related(a, b, c, [describeDifference(diff, A, B)], { kind: "none" }, [...differences, diff]);
  }

  let cmp = combine(combine(numCmp, timeCmp), pickCmp === "disjoint" ? "disjoint" : "equal");
  // Another option AND another threshold or time: too far apart to say more than "related".
  if (pickCmp === "disjoint" && (numCmp !== "equal" || timeCmp !== "equal")) return null;
  if (context.stage !== null && cmp !== "disjoint") {
    cmp = combine(cmp, context.stage);
    notes.push(context.stage === "sub" ? "a title win implies the conference win" : "the conference win is implied by the title win");
  }
  const form = (c.form = compareForm(a, b));
  if (form.negation) {
    if (cmp === "equal") cmp = "disjoint";
    else if (cmp === "disjoint") cmp = "overlap";
    const diff: Difference = { attribute: "negation", state: "conflict", a: [String(a.negated)], b: [String(b.negated)] };
    differences.push(diff);
    notes.push(describeDifference(diff, A, B));
  }
  if (cmp === "equal" && form.disjunctive !== null) {
    cmp = form.disjunctive === "a" ? "sup" : "sub";
    c.disjunctiveCounted = true;
    const diff: Difference = { attribute: "criteria", state: "conflict", a: form.disjunctive === "a" ? ["any of several"] : [], b: form.disjunctive === "b" ? ["any of several"] : [] };
    differences.push(diff);
    notes.push(describeDifference(diff, A, B));
  }

  // What one side states and the other leaves unsaid (a name, a word, a position, a date) is not a
  // conflict: it is evidence the fitted identity model weighs. What both sides state differently
  // (another number, time, option, place, position, or a rule term) fails closed.
  const pickWords = new Set([...(a.pick ?? []), ...(b.pick ?? [])]);
  // Options already compared as the same (an abbreviation of one another) are not differences.
  const excused = new Set(pickCmp === "equal" ? pickWords : []);
  // Words of the typed concepts were compared above (a different place, office or stage returned).
  for (const f of [a, b]) for (const values of Object.values(f.concepts)) for (const v of values ?? []) for (const w of v.split(" ")) excused.add(w);
  // A city one side states and the other leaves unsaid is weighed once, as a descriptor on one side
  // (`contextOneSide`): its name's words ("Springfield" of "Springfield Owls") are not unsaid names too.
  for (const d of context.oneSide) {
    if (d.type !== "city") continue;
    const [side, cities] = d.a.length > 0 ? [a, d.a] : [b, d.b];
    for (const hit of findConcepts(canonicalTokens(side.question)).hits) if (hit.type === "city" && cities.includes(hit.canon)) for (const w of hit.words) excused.add(w);
  }
  // Winning a competition's final is winning the competition (compare/names.ts, `wonFinal`).
  for (const w of wonFinal(a, b)) excused.add(w);
  // The options were compared as options: their words are not wording.
  const read = compareWording(a, b, excused, pickWords);
  // Names the other market's own words imply across the catalog are not unsaid (compare/names.ts).
  const implied = { a: namesImplied(read.names.a, a.venue, b, travels, read.names.b), b: namesImplied(read.names.b, b.venue, a, travels, read.names.a) };
  c.implied = implied;
  const wording = (c.wording = { ...read, names: { a: read.names.a.filter((w) => !implied.a.includes(w)), b: read.names.b.filter((w) => !implied.b.includes(w)) } });
  if (implied.a.length + implied.b.length > 0) notes.push(`implied by the other market's own names across the catalog: ${[...implied.a.map((w) => `${A} ${w}`), ...implied.b.map((w) => `${B} ${w}`)].join(", ")}`);
  const paraphrases = [...wording.paraphrased.a.map((p) => `${A} ${p.word} = ${B} ${p.as}`), ...wording.paraphrased.b.map((p) => `${B} ${p.word} = ${A} ${p.as}`)];
  if (paraphrases.length > 0) notes.push(`in other words: ${paraphrases.join(", ")}`);

  // Differences one side states alone (or positions both state differently): the identity
  // decision weighs them; a nesting with any is at most an overlap.
  const unsaid: Difference[] = [];
  const nameCount = wording.names.a.length + wording.names.b.length;
  if (nameCount > 0 && (cmp !== "disjoint" || [...wording.names.a, ...wording.names.b].some((w) => !pickWords.has(w)))) {
    unsaid.push({ attribute: "names", state: "oneSide", a: wording.names.a, b: wording.names.b });
  }
  if (form.ordinals === "conflict" || form.ordinals === "oneSide") unsaid.push({ attribute: "positions", state: form.ordinals, a: form.a, b: form.b });
  if (wording.words.a.length > 0 || wording.words.b.length > 0) unsaid.push({ attribute: "wording", state: "oneSide", a: wording.words.a, b: wording.words.b });
  if (time.state === "oneSide" && cmp !== "disjoint") unsaid.push({ attribute: "date", state: "oneSide", a: time.a === null ? [] : [describeTime(time.a)], b: time.b === null ? [] : [describeTime(time.b)] });
  for (const d of context.oneSide) unsaid.push({ attribute: "context", state: "oneSide", label: typeLabel[d.type], a: d.a, b: d.b });
  const unsaidText = unsaid.map((d) => describeDifference(d, A, B)).join("; ");
  // What the act is about differs ("X banned" vs "Y banned", each word unsaid on the other side): not one question.
  const objects = objectsDiffer(a, b, wording.words);
  if (objects !== null) {
    const diff: Difference = { attribute: "wording", state: "conflict", label: objects.anchor, a: [objects.a], b: [objects.b] };
    differences.push(diff);
    notes.push(describeDifference(diff, A, B));
  }

  // Sources (informative for the confidence) and rule terms.
  const rules = (c.rules = compareRules(a, b, cmp, numCmp));
  if (rules.sources === "same") notes.push(`same source ${rules.sharedSources.join(", ")}`);
  const ruleDifferences = rules.differences;
  const { notes: ruleNotes, differences: ruleDiffs } = namedRules(ruleDifferences, A, B);
  notes.push(...ruleNotes);
  // A leaderboard one side's rules read the outcome from, which the other's never name: not the same question.
  const leaderboard = rules.leaderboardOneSide;
  if (leaderboard !== null) {
    const diff: Difference = { attribute: "rules", state: "oneSide", label: "ranking", a: leaderboard.a === "" ? [] : [leaderboard.a], b: leaderboard.b === "" ? [] : [leaderboard.b] };
    ruleDiffs.push(diff);
    notes.push(describeDifference(diff, A, B));
  }

  const ev = evidenceOf(c);
  const ordinalsDiffer = form.ordinals === "conflict" || form.ordinals === "oneSide";
  let identityCandidate = false;
  let found: Difference[] = [...differences, ...ruleDiffs];
  if (cmp === "equal" && ruleDifferences.length === 0 && leaderboard === null && objects === null && form.ordinals !== "conflict") {
    // The fitted decision: the chance this is one question, from the whole comparison vector.
    identityCandidate = true;
    const p = identityProbability(ev);
    if (p < identityThreshold) {
      notes.push(`not the same question: ${unsaid.length > 0 ? unsaidText : "too little read the same"} (fitted chance ${p.toFixed(2)}, below ${identityThreshold})`);
      cmp = "overlap";
      found = [...found, ...unsaid];
    } else if (unsaid.length > 0) notes.push(`left unsaid on one side: ${unsaidText}`);
  } else if (cmp !== "overlap" && cmp !== "disjoint" && (unsaid.length > 0 || ruleDifferences.length > 0 || leaderboard !== null || objects !== null || ordinalsDiffer)) {
    notes.push(`not the same question${unsaid.length > 0 ? `: ${unsaidText}` : ""}`);
    cmp = "overlap";
    found = [...found, ...unsaid];
  } else if (cmp === "disjoint" && unsaid.some((d) => d.attribute !== "date")) {
    notes.push(`not the same question: ${unsaidText}`);
    cmp = "overlap";
    found = [...found, ...unsaid];
  } else if (cmp === "overlap") found = [...found, ...unsaid];

  const relation = cmpToRelation[cmp];
  const tail: Tail =
    relation === "disjoint" ? { kind: quantity.complement ? "complement" : "disjoint" } : relation === "overlap" ? { kind: "related" } : { kind: relation };
  const confidence = relation === "identity" ? identityProbability(ev) : calibrated(relation, ev);
  return { relation, confidence, reasoning: renderReasoning(notes, tail, A, B), notes, tail, venues: { a: A, b: B }, differences: found, evidence: ev, ruleDifferences, identityCandidate };
}
