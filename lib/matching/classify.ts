import { calibrated, emptyEvidence, type Evidence } from "./confidence";
import { identityProbability, identityThreshold } from "./decision";
import { compareRuleTerms, describeRuleDifference, type RuleDifference } from "./rules";
import { baseForm, paraphraseIn } from "./wordnet";
import type { Features, Interval, TimeScope } from "./extract";
import { teamCityOf } from "./names";
import { countryWords } from "./places";
import { contextTypes, genericWords, type ConceptType } from "./lexicon";

import { type Relation } from "./relations";

export { invertRelation, relations, type Relation } from "./relations";

export interface PairResult {
  /** Read from market A to market B: subset = Yes on A implies Yes on B. */
  relation: Relation;
  confidence: number;
  reasoning: string;
  /** What the confidence was computed from (kept for fitting it, not stored). */
  evidence: Evidence;
  /** Rule terms both markets state differently, each side's wording (A, then B). */
  ruleDifferences: RuleDifference[];
  /** Nothing conflicts and the relation was decided by the fitted identity model (kept for fitting it). */
  identityCandidate: boolean;
}

type Cmp = "equal" | "sub" | "sup" | "disjoint" | "overlap";

const flip = (c: Cmp): Cmp => (c === "sub" ? "sup" : c === "sup" ? "sub" : c);

// ---------------------------------------------------------------------------------------------
// Attribute comparisons
// ---------------------------------------------------------------------------------------------

/** Reporting step of a quantity: a strict bound moves by one step ("> 3.0%" = "≥ 3.1%"). */
function step(a: Interval, b: Interval): number {
  switch (a.unit) {
    case "bps":
      return 25; // policy rates move in quarter points
    case "pct":
      return 10 ** -Math.max(1, a.decimals, b.decimals);
    case "deg":
      return 1;
    case "usd":
      return 0.01;
    default:
      return Number.isInteger(a.lo ?? 0) && Number.isInteger(a.hi ?? 0) && Number.isInteger(b.lo ?? 0) ? 1 : 10 ** -Math.max(a.decimals, b.decimals);
  }
}

interface Bounds {
  lo: number;
  hi: number;
}

function closed(i: Interval, g: number): Bounds {
  const lo = i.lo === null ? -Infinity : i.loStrict ? i.lo + g : i.lo;
  const hi = i.hi === null ? Infinity : i.hiStrict ? i.hi - g : i.hi;
  return { lo, hi };
}

/** 150000 -> "150,000" (toLocaleString is slow in a loop of millions). */
function groupThousands(v: number): string {
  const [int = "", frac] = String(Math.round(v * 100) / 100).split(".");
  const sign = int.startsWith("-") ? "-" : "";
  const digits = sign === "" ? int : int.slice(1);
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}${grouped}${frac === undefined ? "" : `.${frac}`}`;
}

const fmtNumber = (unit: Interval["unit"], v: number) => {
  const n = Math.abs(v) >= 1000 ? groupThousands(v) : String(Number(v.toFixed(4)));
  return unit === "usd" ? `$${n}` : unit === "pct" ? `${n}%` : unit === "bps" ? `${n} bps` : unit === "deg" ? `${n}°` : n;
};

export function describeInterval(i: Interval): string {
  const f = (v: number) => fmtNumber(i.unit, v);
  if (i.lo !== null && i.hi !== null) return i.lo === i.hi ? `= ${f(i.lo)}` : `${f(i.lo)} to ${f(i.hi)}`;
  if (i.lo !== null) return `${i.loStrict ? ">" : "≥"} ${f(i.lo)}`;
  if (i.hi !== null) return `${i.hiStrict ? "<" : "≤"} ${f(i.hi)}`;
  return "any value";
}

/** How interval A relates to interval B; `tick` is true when equality needed a one-tick tolerance. */
function compareIntervals(a: Interval, b: Interval): { cmp: Cmp | "incomparable"; tick: boolean } {
  if (a.unit !== b.unit) return { cmp: "incomparable", tick: false };
  const g = step(a, b);
  const A = closed(a, g);
  const B = closed(b, g);
  // Continuous prices: "above $X" and "$X or above" differ by one cent, which no market can tell apart.
  const tol = (v: number) => (a.unit === "usd" && Number.isFinite(v) ? Math.max(g, Math.abs(v) * 1e-6) * 1.0001 : g * 1e-6);
  const near = (x: number, y: number) => x === y || (Number.isFinite(x) && Number.isFinite(y) && Math.abs(x - y) <= tol(x));
  const loEq = near(A.lo, B.lo);
  const hiEq = near(A.hi, B.hi);
  const tick = (loEq && A.lo !== B.lo) || (hiEq && A.hi !== B.hi);
  if (loEq && hiEq) return { cmp: "equal", tick };
  if (A.hi < B.lo - tol(B.lo) || B.hi < A.lo - tol(A.lo)) return { cmp: "disjoint", tick: false };
  const aInB = (loEq || A.lo >= B.lo) && (hiEq || A.hi <= B.hi);
  const bInA = (loEq || B.lo >= A.lo) && (hiEq || B.hi <= A.hi);
  if (aInB) return { cmp: "sub", tick };
  if (bInA) return { cmp: "sup", tick };
  return { cmp: "overlap", tick: false };
}

/** Two one-sided intervals that meet with nothing between them ("≤ 4.4%" and "> 4.4%"): together every value. */
function complements(a: Interval, b: Interval): boolean {
  const g = step(a, b);
  const [low, high] = a.hi !== null && a.lo === null ? [a, b] : [b, a];
  if (low.lo !== null || low.hi === null || high.hi !== null || high.lo === null) return false;
  const L = closed(low, g);
  const H = closed(high, g);
  return Math.abs(H.lo - L.hi - g) <= g * 1e-3;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function describeTime(t: TimeScope): string {
  if (t.kind === "instant") return `on ${day(t.start ?? t.end - 86_400_000)}${t.hour !== null ? ` at ${t.hour}:00` : ""}`;
  return t.start !== null ? `${day(t.start)} to before ${day(t.end)}` : `before ${day(t.end)}`;
}

/** Time relation of A to B for questions about something happening by a time. */
function compareEventTimes(a: TimeScope, b: TimeScope): Cmp {
  const aStart = a.start;
  const bStart = b.start;
  const startsKnown = aStart !== null && bStart !== null;
  if (a.kind === "instant" && b.kind === "instant") {
    if (a.start !== b.start) return "disjoint";
    if (a.hour !== null && b.hour !== null && a.hour !== b.hour) return "disjoint";
    return "equal";
  }
  if (a.kind === "instant" && b.kind === "window") {
    const t = a.start ?? a.end;
    return t < b.end && (bStart === null || t >= bStart) ? "sub" : "disjoint";
  }
  if (a.kind === "window" && b.kind === "instant") return flip(compareEventTimes(b, a));
  // Two windows. An unknown start (a deadline from "now") is taken as the other's start.
  if (startsKnown && (a.end <= (bStart ?? 0) || b.end <= (aStart ?? 0))) return "disjoint";
  const startCmp = startsKnown ? Math.sign((aStart ?? 0) - (bStart ?? 0)) : 0;
  const endCmp = Math.sign(a.end - b.end);
  if (startCmp === 0 && endCmp === 0) return "equal";
  if (startCmp >= 0 && endCmp <= 0) return "sub";
  if (startCmp <= 0 && endCmp >= 0) return "sup";
  return "overlap";
}

/** Time relation for questions about a value at a time: the same reference period or not. */
function compareValueTimes(a: TimeScope, b: TimeScope): { cmp: "equal" | "disjoint"; loose: boolean } {
  if (a.kind === b.kind) {
    const sameStart = a.start === null || b.start === null || a.start === b.start;
    if (a.end !== b.end || !sameStart) return { cmp: "disjoint", loose: false };
    if (a.kind === "instant" && a.hour !== null && b.hour !== null && a.hour !== b.hour) return { cmp: "disjoint", loose: false };
    return { cmp: "equal", loose: a.kind === "instant" && (a.hour === null) !== (b.hour === null) };
  }
  // An instant inside a month ("the July meeting" vs "Jul 29") is the same reference period.
  const inst = a.kind === "instant" ? a : b;
  const win = a.kind === "instant" ? b : a;
  const t = inst.start ?? inst.end;
  const inside = win.start !== null && t >= win.start && t < win.end && win.end - win.start <= 31 * 86_400_000;
  return { cmp: inside ? "equal" : "disjoint", loose: true };
}

/** Named options: same, the same written shorter ("Springfield A" for "Springfield Atoms"), or different. */
export function comparePicks(a: string[], b: string[]): "same" | "abbrev" | "different" {
  if (a.join(" ") === b.join(" ")) return "same";
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length === 0) return "different";
  // Positional: every word of the shorter is the longer's word or its initial letters.
  let positional = true;
  for (let i = 0; i < short.length; i += 1) {
    const s = short[i] ?? "";
    const l = long[i] ?? "";
    const [x, y] = s.length <= l.length ? [s, l] : [l, s];
    if (!(x === y || (y.startsWith(x) && (x.length <= 3 || x.length >= y.length - 3)))) {
      positional = false;
      break;
    }
  }
  if (positional) return "abbrev";
  // A surname alone ("Quill" for "Ada Quill").
  const longSet = new Set(long);
  if (short.length === 1 && (short[0] ?? "").length > 3 && longSet.has(short[0] ?? "") && long.at(-1) === short[0]) return "abbrev";
  return "different";
}

let homeWords: Set<string> | null = null;
const homeCountryWords = () => (homeWords ??= countryWords("us"));

interface Lookup {
  other: Set<string>;
  /** The longer words, for inflections. */
  stems: string[];
}

/** Lookups built once per market and pass (a market is compared with a dozen others). */
const namesCache = new WeakMap<Features, Lookup>();
const wordsCache = new WeakMap<Features, Lookup>();

function lookup(cache: WeakMap<Features, Lookup>, f: Features, words: () => Iterable<string>): Lookup {
  let l = cache.get(f);
  if (l === undefined) {
    const other = new Set<string>();
    // A hyphenated word also stands for its parts ("gpt-6" holds "gpt", "ocasio-cortez" "cortez").
    for (const w of words()) {
      other.add(w);
      if (w.includes("-")) for (const part of w.split("-")) if (part !== "") other.add(part);
    }
    l = { other, stems: [...other].filter((w) => w.length >= 5) };
    cache.set(f, l);
  }
  return l;
}

/** B's words where A's names are looked for. Both venues are US exchanges: a question that names no
 * country is about the home country, so "the national savings rate" and "the savings rate" are
 * one measure. */
const namesLookup = (b: Features) =>
  lookup(namesCache, b, () => [...b.words, ...b.ruleNames, ...((b.concepts.country ?? []).length === 0 ? homeCountryWords() : [])]);

/** B's words and rule words, where A's content words are looked for (the home country's words when B names no country, as for names). */
const wordsLookup = (b: Features) =>
  lookup(wordsCache, b, () => [...b.words, ...b.ruleWords, ...((b.concepts.country ?? []).length === 0 ? homeCountryWords() : [])]);

/** Length of the common prefix of two words. */
function commonPrefix(x: string, y: string): number {
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i += 1;
  return i;
}

/** The same word, or one inflection of it ("presidency" / "presidential", "zorbia" / "zorbian"). */
function sameStem(x: string, y: string): boolean {
  if (x === y) return true;
  const shorter = Math.min(x.length, y.length);
  return shorter >= 5 && commonPrefix(x, y) >= Math.max(5, Math.ceil(0.7 * shorter));
}

/**
 * The names A states that B does not: every word of every name span must be found among B's
 * words (its question, label, event title and rule), as the same word, an inflection, or the
 * letters of an acronym B's text spells out; a person's given names may be left out when the
 * surname is there. An unknown name is a difference, never noise.
 */
export function unmatchedNames(a: Features, b: Features, excused: ReadonlySet<string> = new Set()): string[] {
  const { other, stems } = namesLookup(b);
  // Words that carry no topic ("Winner", "Title", "Election" in a title-case heading) are not names.
  const has = (w: string) =>
    genericWords.has(w) ||
    excused.has(w) ||
    other.has(w) ||
    (w.length >= 5 && stems.some((x) => sameStem(x, w))) ||
    b.initialisms.includes(w) ||
    // A team's nickname where the other side names its city ("Owls" for "Springfield").
    teamCityOf(w).some((city) => city.every((c) => other.has(c)));
  // Given names B states for a surname: a different one there is another person ("Chris" vs "Phil").
  const givenOnB = new Map<string, string[]>();
  for (const span of b.names) if (span.person && span.words.length > 1) givenOnB.set(span.words.at(-1) ?? "", span.words.slice(0, -1));
  const missing: string[] = [];
  for (const span of a.names) {
    // An acronym of the whole name on the other side ("DWS" for "Department of Widget Safety").
    const initials = span.words.map((w) => w[0] ?? "").join("");
    if (span.words.length > 1 && b.names.some((n) => n.acronym && n.words.some((w) => w.includes(initials)))) continue;
    const surname = span.words.at(-1) ?? "";
    span.words.forEach((w, i) => {
      if (has(w)) return;
      const given = givenOnB.get(surname);
      if (span.person && i < span.words.length - 1 && has(surname) && (given === undefined || given.includes(w))) return;
      missing.push(w);
    });
  }
  return [...new Set(missing)];
}

/** Content words of A's own question that B's text has nowhere (a weaker sign than a name). */
export function unmatchedWords(a: Features, b: Features, excused: ReadonlySet<string> = new Set()): string[] {
  const { other, stems: otherList } = wordsLookup(b);
  // Names are compared by unmatchedNames, with what reconciles them (acronyms, given names).
  const named = new Set(a.names.flatMap((n) => n.words));
  return a.outcome.filter(
    (w) => !genericWords.has(w) && !named.has(w) && !excused.has(w) && !other.has(w) && !(w.length >= 5 && otherList.some((x) => sameStem(x, w))),
  );
}

/** B's words and rule words in their WordNet base forms ("raises" -> "raise"). */
const baseCache = new WeakMap<Features, Set<string>>();
function baseWords(b: Features): Set<string> {
  let set = baseCache.get(b);
  if (set === undefined) {
    set = new Set<string>();
    for (const w of wordsLookup(b).other) {
      set.add(w);
      set.add(baseForm(w));
    }
    baseCache.set(b, set);
  }
  return set;
}

/**
 * A's unmatched words split into those B states in other words (a WordNet synonym or derived
 * form: "visit" / "travel to") and those it does not state at all.
 */
export function wordDifferences(a: Features, b: Features, excused: ReadonlySet<string> = new Set()): { missing: string[]; paraphrased: Array<{ word: string; as: string }> } {
  const missing: string[] = [];
  const paraphrased: Array<{ word: string; as: string }> = [];
  for (const w of unmatchedWords(a, b, excused)) {
    const as = paraphraseIn(w, baseWords(b));
    if (as === null) missing.push(w);
    else paraphrased.push({ word: w, as });
  }
  return { missing, paraphrased };
}

// ---------------------------------------------------------------------------------------------
// The pair
// ---------------------------------------------------------------------------------------------

export type Idf = (token: string) => number;

/** Weighted overlap of the two topics (0..1): how much of the smaller topic the other shares. */
export function topicSimilarity(a: Features, b: Features, idf: Idf): number {
  const setB = new Set(b.topic);
  let shared = 0;
  let sumA = 0;
  let sumB = 0;
  const w = (t: string) => idf(t) * (genericWords.has(t) ? 0.3 : 1);
  for (const t of a.topic) {
    sumA += w(t);
    if (setB.has(t)) shared += w(t);
  }
  for (const t of b.topic) sumB += w(t);
  const denominator = Math.min(sumA, sumB);
  return denominator <= 0 ? 0 : Math.min(1, shared / denominator);
}

/**
 * The one undated side's time, read from the Yes paragraph of its rules, when the other side's
 * question states a time. (Its resolution date is not used: venues set it to a placeholder, such as
 * the year's last day for a final played in June.)
 */
function inferTime(a: Features, b: Features): { a: TimeScope | null; b: TimeScope | null; note: string | null; fromResolution: boolean } {
  if ((a.time === null) === (b.time === null)) return { a: a.time, b: b.time, note: null, fromResolution: false };
  const undated = a.time === null ? a : b;
  const dated = a.time === null ? b.time : a.time;
  // Features stored by an older engine lack the field.
  const found = undated.ruleTime ?? null;
  if (found !== null) {
    const note = `${undated.venue}'s rules state ${describeTime(found)}`;
    return a.time === null ? { a: found, b: b.time, note, fromResolution: false } : { a: a.time, b: found, note, fromResolution: false };
  }
  // The market's own resolution date says which occasion an undated question is about ("the
  // Oscars" resolving the week of one ceremony). It fills the date only when it falls inside the
  // other side's window (or on its day): a placeholder date far after it fills nothing.
  const r = undated.resolution ?? null;
  if (r === null || dated === null) return { a: a.time, b: b.time, note: null, fromResolution: false };
  const slack = 2 * 86_400_000;
  // A market that resolves before the other's window opens is about an earlier occasion: its own
  // context states another time (a conflict, compared as one below).
  const opens = dated.kind === "instant" ? (dated.start ?? dated.end) : dated.start;
  if (opens !== null && r < opens - slack) {
    const own: TimeScope = { kind: "instant", start: r, end: r + 86_400_000, hour: null, label: `resolves ${day(r)}` };
    const note = `${undated.venue} resolves ${day(r)}, before the other's ${describeTime(dated)}`;
    return a.time === null ? { a: own, b: b.time, note, fromResolution: true } : { a: a.time, b: own, note, fromResolution: true };
  }
  const inside = dated.kind === "instant" ? Math.abs(r - (dated.start ?? dated.end)) <= slack : r <= dated.end + slack && (dated.start === null || r >= dated.start - slack);
  if (!inside) return { a: a.time, b: b.time, note: null, fromResolution: false };
  const note = `${undated.venue} resolves ${day(r)}, inside the other's ${describeTime(dated)}`;
  return { a: dated, b: dated, note, fromResolution: true };
}

const typeLabel: Record<ConceptType, string> = {
  state: "state",
  country: "country",
  city: "place",
  party: "party",
  office: "office",
  competition: "competition",
  asset: "asset",
  indicator: "measure",
  org: "organisation",
};

/** Context types where a value on one side only still makes a different question (another asset or measure). */
const scopeOnOneSide = new Set<ConceptType>(["state", "office", "asset", "indicator"]);

/**
 * Context a question may leave unsaid without asking something else: a team's city ("the Owls"
 * for "the Springfield Owls"). Stated on one side only it is evidence the identity decision weighs.
 * (A state or an office on one side only was measured as evidence too and lost validation recall
 * at the precision target: they stay differences.)
 */
const descriptorOnOneSide = new Set<ConceptType>(["city"]);

interface ContextDiff {
  type: ConceptType;
  a: string[];
  b: string[];
}

/** A conference without its league ("west conference" for "nba west conference"). */
const conferenceOnly = (v: string) => v.replace(/^.*?\b(\w+ conference)$/, "$1");

function compareContexts(a: Features, b: Features): { diffs: ContextDiff[]; agreed: string[]; stage: Cmp | null; oneSide: ContextDiff[] } {
  const diffs: ContextDiff[] = [];
  const oneSide: ContextDiff[] = [];
  const agreed: string[] = [];
  let stage: Cmp | null = null;
  const types = new Set<ConceptType>([...contextTypes, ...(a.pick === null && b.pick === null ? (["party"] as const) : [])]);
  for (const type of types) {
    const va = a.concepts[type] ?? [];
    const vb = b.concepts[type] ?? [];
    if (va.length === 0 && vb.length === 0) continue;
    if (va.length === 0 || vb.length === 0) {
      if (scopeOnOneSide.has(type)) diffs.push({ type, a: va, b: vb });
      else if (descriptorOnOneSide.has(type)) oneSide.push({ type, a: va, b: vb });
      continue;
    }
    let shared = va.filter((v) => vb.includes(v));
    // A conference one side names with its league and the other without it is the same conference.
    if (shared.length === 0 && type === "competition") shared = va.filter((v) => v.endsWith("conference") && vb.some((w) => conferenceOnly(w) === conferenceOnly(v)));
    if (shared.length > 0) {
      agreed.push(...shared);
      continue;
    }
    if (type === "competition") {
      // Same league, different stage: a title win implies the conference win that leads to it.
      const stageOf = (vs: string[]) => (vs.some((v) => v.endsWith("title")) ? "title" : vs.some((v) => v.includes("conference")) ? "conference" : null);
      const league = (vs: string[]) => vs.map((v) => v.split(" ")[0]);
      const sa = stageOf(va);
      const sb = stageOf(vb);
      if (sa !== null && sb !== null && sa !== sb && league(va).some((l) => league(vb).includes(l))) {
        stage = sa === "title" ? "sub" : "sup";
        continue;
      }
    }
    diffs.push({ type, a: va, b: vb });
  }
  return { diffs, agreed, stage, oneSide };
}

function combine(x: Cmp, y: Cmp): Cmp {
  if (x === "disjoint" || y === "disjoint") return "disjoint";
  if (x === "equal") return y;
  if (y === "equal") return x;
  if (x === y) return x;
  return "overlap";
}

const cmpToRelation: Record<Cmp, Relation> = {
  equal: "identity",
  sub: "subset",
  sup: "superset",
  disjoint: "disjoint",
  overlap: "overlap",
};

const scored = (relation: Relation, evidence: Evidence) => ({ confidence: calibrated(relation, evidence), evidence, ruleDifferences: [], identityCandidate: false });

/** Lowest topic similarity at which two markets are compared at all. */
export const MIN_TOPIC_SIMILARITY = 0.3;

/**
 * Classifies the pair (A -> B) by comparing what was extracted: context (place, office,
 * competition, asset, measure), the named option, the threshold and its direction, the deadline
 * or instant, negation and resolution sources. Null when the two are not about the same thing.
 */
export function classifyPair(a: Features, b: Features, idf: Idf): PairResult | null {
  const sim = topicSimilarity(a, b, idf);
  if (sim < MIN_TOPIC_SIMILARITY) return null;
  // The reasoning names the sides by venue: it is read from either side of the stored pair.
  const A = a.venue;
  const B = b.venue;
  const notes: string[] = [];
  const ev = emptyEvidence(sim);
  ev.unmatchedWords = unmatchedWords(a, b).length + unmatchedWords(b, a).length;
  ev.unmatchedNames = unmatchedNames(a, b).length + unmatchedNames(b, a).length;

  const context = compareContexts(a, b);
  if (context.agreed.length > 0) notes.push(`same ${[...new Set(context.agreed)].slice(0, 4).join(", ")}`);
  ev.contextOneSide = context.oneSide.length;
  const other = (v: string[]) => (v.length === 0 ? "none" : v.join("/"));
  for (const d of context.oneSide) notes.push(`${typeLabel[d.type]} on one side only: ${A} ${other(d.a)}, ${B} ${other(d.b)}`);
  if (context.diffs.length > 0) {
    // Another place, office or measure: related questions that can both resolve Yes.
    if (context.diffs.length > 1 || sim < 0.5) return null;
    const d = context.diffs[0];
    if (d === undefined) return null;
    return {
      relation: "overlap",
      ...scored("overlap", { ...ev, contextDiff: 1 }),
      reasoning: `Different ${typeLabel[d.type]}: ${A} ${other(d.a)} vs ${B} ${other(d.b)}; ${notes.join("; ") || "same topic"}. Related questions that can both resolve Yes.`,
    };
  }

  // The named option Yes stands for.
  let pickCmp: Cmp = "equal";
  if (a.pick !== null && b.pick !== null) {
    const p = comparePicks(a.pick, b.pick);
    if (p === "different") {
      pickCmp = "disjoint";
      notes.push(`different option: ${A} ${a.pick.join(" ")} vs ${B} ${b.pick.join(" ")}`);
    } else {
      notes.push(`same option: ${a.pick.join(" ")}${p === "abbrev" ? ` = ${b.pick.join(" ")}` : ""}`);
      if (p === "abbrev") ev.abbreviated = 1;
    }
  } else if (a.pick !== null || b.pick !== null) {
    const named = (a.pick ?? b.pick ?? []).join(" ");
    // The option on one side, phrased inside the other's question, is the same option.
    const other = a.pick === null ? a : b;
    const pickTokens = a.pick ?? b.pick ?? [];
    // All its words, or its last word (a surname, a team's nickname) when that word is distinctive.
    const last = pickTokens.at(-1) ?? "";
    if (pickTokens.length > 0 && (pickTokens.every((t) => other.topic.includes(t)) || (last.length > 3 && other.topic.includes(last)))) {
      notes.push(`option ${named} named on both sides`);
      ev.optionOneSide = 1;
    } else {
      return null;
    }
  }

  // Threshold or range.
  let numCmp: Cmp = "equal";
  let complement = false;
  if (a.interval !== null && b.interval !== null) {
    const r = compareIntervals(a.interval, b.interval);
    if (r.cmp === "incomparable") return null;
    numCmp = r.cmp;
    notes.push(`${r.cmp === "equal" ? "same threshold" : "thresholds"}: ${A} ${describeInterval(a.interval)} vs ${B} ${describeInterval(b.interval)}${r.tick ? " (one tick apart)" : ""}`);
    if (r.tick) ev.tick = 1;
    if (r.cmp === "disjoint" && complements(a.interval, b.interval)) complement = true;
  } else if (a.interval !== null || b.interval !== null) {
    return null;
  }

  // Time. A date one question states and the other leaves out may be stated in the other's rules,
  // or be where the other resolves: the undated question is then about the same time.
  const inferred = inferTime(a, b);
  const timeA = inferred.a;
  const timeB = inferred.b;
  if (inferred.note !== null) {
    if (inferred.fromResolution) ev.dateFromResolution = 1;
    else ev.dateInferred = 1;
    notes.push(inferred.note);
  }
  let timeCmp: Cmp = "equal";
  const valueQuestion = a.interval !== null && b.interval !== null;
  if (timeA !== null && timeB !== null) {
    const touchVsAt = valueQuestion && a.mode !== b.mode;
    if (valueQuestion && !touchVsAt) {
      const t = compareValueTimes(timeA, timeB);
      if (t.cmp === "disjoint") {
        notes.push(`different time: ${A} ${describeTime(timeA)} vs ${B} ${describeTime(timeB)}`);
        return {
          relation: "overlap",
          ...scored("overlap", { ...ev, timeDiff: 1 }),
          reasoning: `${capitalize(notes.join("; "))}. The same measure at another time: both can resolve Yes.`,
        };
      }
      if (t.loose) ev.looseTime = 1;
      notes.push(`same time ${describeTime(timeA)}`);
    } else {
      timeCmp = compareEventTimes(timeA, timeB);
      if (touchVsAt) {
        // A level held at one instant inside the window implies the level was reached in it.
        const at = a.mode === "at" ? timeA : timeB;
        const touch = a.mode === "at" ? timeB : timeA;
        const inside = (at.start ?? at.end) < touch.end && (touch.start === null || (at.start ?? at.end) >= touch.start);
        if (!inside) return null;
        const aNum = numCmp;
        const atIsA = a.mode === "at";
        // A at-level ⊂ B touch-level when A's set of values is inside B's.
        if (atIsA && (aNum === "equal" || aNum === "sub")) timeCmp = "sub";
        else if (!atIsA && (aNum === "equal" || aNum === "sup")) timeCmp = "sup";
        else timeCmp = "overlap";
        numCmp = timeCmp === "overlap" ? "overlap" : "equal";
        notes.push(`the price ${describeTime(at)} (${a.mode === "at" ? A : B}) vs reaching a level ${describeTime(touch)} (${a.mode === "at" ? B : A})`);
      } else if (timeCmp === "disjoint") {
        notes.push(`different time: ${A} ${describeTime(timeA)} vs ${B} ${describeTime(timeB)}`);
        return {
          relation: "overlap",
          ...scored("overlap", { ...ev, timeDiff: 1 }),
          reasoning: `${capitalize(notes.join("; "))}. Related: both can resolve Yes.`,
        };
      } else {
        notes.push(timeCmp === "equal" ? `same time ${describeTime(timeA)}` : `${A} ${describeTime(timeA)} vs ${B} ${describeTime(timeB)}`);
      }
    }
  } else if (timeA !== null || timeB !== null) {
    ev.dateOneSide = 1;
    notes.push("a date on one side only");
  }
  if (a.seasons.length > 0 && b.seasons.length > 0 && !a.seasons.some((s) => b.seasons.includes(s))) {
    return {
      relation: "overlap",
      ...scored("overlap", { ...ev, timeDiff: 1 }),
      reasoning: `Different season: ${A} ${a.seasons.join("/")} vs ${B} ${b.seasons.join("/")}.`,
    };
  }

  let cmp = combine(combine(numCmp, timeCmp), pickCmp === "disjoint" ? "disjoint" : "equal");
  if (pickCmp === "disjoint" && (numCmp !== "equal" || timeCmp !== "equal")) {
    // Another option AND another threshold or time: too far apart to say more than "related".
    return null;
  }
  if (context.stage !== null && cmp !== "disjoint") {
    cmp = combine(cmp, context.stage);
    notes.push(context.stage === "sub" ? "a title win implies the conference win" : "the conference win is implied by the title win");
  }
  if (a.negated !== b.negated) {
    if (cmp === "equal") cmp = "disjoint";
    else if (cmp === "disjoint") cmp = "overlap";
    notes.push("one question is negated");
  }
  if (cmp === "equal" && a.disjunctive !== b.disjunctive) {
    cmp = a.disjunctive ? "sup" : "sub";
    ev.disjunctive = 1;
    notes.push(`${a.disjunctive ? A : B} resolves Yes on any of several criteria, the other on one`);
  }

  // What one side states and the other leaves unsaid (a name, a word, a position, a date) is not a
  // conflict: it is evidence the fitted identity model weighs. What both sides state differently
  // (another number, time, option, place, position, or a rule term) fails closed.
  const pickWords = new Set([...(a.pick ?? []), ...(b.pick ?? [])]);
  // Options already compared as the same (an abbreviation of one another) are not differences.
  const excused = new Set(pickCmp === "equal" ? pickWords : []);
  // Words of the typed concepts were compared above (a different place, office or stage returned).
  for (const f of [a, b]) for (const values of Object.values(f.concepts)) for (const v of values ?? []) for (const w of v.split(" ")) excused.add(w);
  const nameDiff = { a: unmatchedNames(a, b, excused), b: unmatchedNames(b, a, excused) };
  ev.unmatchedNames = nameDiff.a.length + nameDiff.b.length;
  // The options were compared as options: their words are not wording.
  const wordExcused = new Set([...excused, ...pickWords]);
  const wordsA = wordDifferences(a, b, wordExcused);
  const wordsB = wordDifferences(b, a, wordExcused);
  // A paraphrase accounts for the words on both sides ("visit" = "travel to" leaves no "travel").
  const accountedOnB = new Set(wordsA.paraphrased.flatMap((p) => p.as.split(" ").flatMap((w) => [w, baseForm(w)])));
  const accountedOnA = new Set(wordsB.paraphrased.flatMap((p) => p.as.split(" ").flatMap((w) => [w, baseForm(w)])));
  const wordDiff = {
    a: wordsA.missing.filter((w) => !accountedOnA.has(w) && !accountedOnA.has(baseForm(w))),
    b: wordsB.missing.filter((w) => !accountedOnB.has(w) && !accountedOnB.has(baseForm(w))),
  };
  ev.unmatchedWords = wordDiff.a.length + wordDiff.b.length;
  ev.paraphrased = wordsA.paraphrased.length + wordsB.paraphrased.length;
  const paraphrases = [...wordsA.paraphrased.map((p) => `${A} ${p.word} = ${B} ${p.as}`), ...wordsB.paraphrased.map((p) => `${B} ${p.word} = ${A} ${p.as}`)];
  if (paraphrases.length > 0) notes.push(`in other words: ${paraphrases.join(", ")}`);
  const bothOrdinals = a.ordinals.length > 0 && b.ordinals.length > 0;
  const ordinalsDiffer = a.ordinals.join(",") !== b.ordinals.join(",");
  if (ordinalsDiffer && !bothOrdinals) ev.ordinalOneSide = 1;
  const differences: string[] = [];
  const said = (v: string, ws: string[]) => (ws.length === 0 ? "" : `${v} says ${ws.join(", ")}`);
  if (ev.unmatchedNames > 0 && (cmp !== "disjoint" || [...nameDiff.a, ...nameDiff.b].some((w) => !pickWords.has(w)))) {
    differences.push(`names differ (${[said(A, nameDiff.a), said(B, nameDiff.b)].filter((x) => x !== "").join("; ")}, the other does not)`);
  }
  if (ordinalsDiffer) differences.push(`positions differ (${A} ${a.ordinals.join("/") || "none"} vs ${B} ${b.ordinals.join("/") || "none"})`);
  if (wordDiff.a.length > 0 || wordDiff.b.length > 0) differences.push(`wording differs (${[said(A, wordDiff.a), said(B, wordDiff.b)].filter((x) => x !== "").join("; ")}, the other does not)`);
  if (ev.dateOneSide === 1 && cmp !== "disjoint") differences.push("a date on one side only");
  for (const d of context.oneSide) differences.push(`${typeLabel[d.type]} on one side only`);

  // Sources: compared as a rule term below; here informative for the confidence.
  if (a.sources.length > 0 && b.sources.length > 0) {
    const shared = a.sources.filter((s) => b.sources.includes(s));
    if (shared.length > 0) notes.push(`same source ${shared.join(", ")}`);
    else ev.sourcesDiffer = 1;
  }

  // Rule terms: compared for every pair whose headline reads the same or nested.
  // A bound's inclusivity was compared with the thresholds when they read differently (a nesting);
  // read from the rules it matters only where the thresholds read the same.
  const ruleDifferences = cmp === "disjoint" ? [] : compareRuleTerms(a.rules ?? {}, b.rules ?? {}).filter((d) => d.term !== "bound" || numCmp === "equal");
  ev.ruleDifferences = ruleDifferences.length;
  if (ruleDifferences.length > 0) notes.push(`rules differ (${ruleDifferences.map((d) => describeRuleDifference(d, A, B)).join("; ")})`);

  let identityCandidate = false;
  if (cmp === "equal" && ruleDifferences.length === 0 && !(ordinalsDiffer && bothOrdinals)) {
    // The fitted decision: the chance this is one question, from the whole comparison vector.
    identityCandidate = true;
    const p = identityProbability(ev);
    if (p < identityThreshold) {
      notes.push(`not the same question: ${differences.length > 0 ? differences.join("; ") : "too little read the same"} (fitted chance ${p.toFixed(2)}, below ${identityThreshold})`);
      cmp = "overlap";
    } else if (differences.length > 0) notes.push(`left unsaid on one side: ${differences.join("; ")}`);
  } else if (cmp !== "overlap" && cmp !== "disjoint" && (differences.length > 0 || ruleDifferences.length > 0 || ordinalsDiffer)) {
    notes.push(`not the same question${differences.length > 0 ? `: ${differences.join("; ")}` : ""}`);
    cmp = "overlap";
  } else if (cmp === "disjoint" && differences.some((d) => !d.startsWith("a date"))) {
    notes.push(`not the same question: ${differences.join("; ")}`);
    cmp = "overlap";
  }

  const relation = cmpToRelation[cmp];
  const tail =
    relation === "identity"
      ? "Yes on one is Yes on the other."
      : relation === "subset"
        ? `Yes on ${A} implies Yes on ${B}.`
        : relation === "superset"
          ? `Yes on ${B} implies Yes on ${A}.`
          : relation === "disjoint"
            ? complement
              ? "They cannot both resolve Yes: one is the other's No."
              : "They cannot both resolve Yes."
            : "Related: both can resolve Yes, neither implies the other.";
  const confidence = relation === "identity" ? identityProbability(ev) : calibrated(relation, ev);
  return { relation, confidence, reasoning: `${capitalize(notes.join("; "))}. ${tail}`, evidence: ev, ruleDifferences, identityCandidate };
}

function capitalize(s: string): string {
  return s.length === 0 ? s : s[0]?.toUpperCase() + s.slice(1);
}
