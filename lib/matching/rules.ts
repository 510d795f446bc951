/**
 * A market's settlement record: the terms of its rules that decide how it resolves, read from its
 * rules text (and, for what the question itself says it requires, its question), and the comparison
 * of two markets' records. Two questions with the same headline are different contracts when their
 * rules count different things: an announcement against the event itself, a nomination against an
 * appointment against a Senate confirmation, a primary against its first round, a condition one rule
 * adds ("scheduled by", "popular vote"), a deadline in another time zone, an inclusive against an
 * exclusive bound, another settlement source or weather station, a window that starts when the
 * market is listed against one that starts on a date.
 *
 * Each term of a pair is the same, conflicting, stated on one side only, or unknown (neither rule
 * states it); unknown is never counted as the same. A conflict is returned with both sides' own
 * wording, so an analyst reads it side by side; the engine keeps a pair with any conflict at most
 * `overlap`. Terms stated on one side only, and those both state alike, are evidence for the fitted
 * identity decision.
 *
 * Kalshi writes its rules from one template per series ("If <subject> <act> before <date>, then the
 * market resolves to Yes."): the act and the conditions are the template's words, the subject and
 * the date its slots, so the same patterns read every market of a series; no rule is written for a
 * series.
 */
import { z } from "zod";
import { priceFeeds } from "./lexicon";
import { clean } from "./text";

/** One market's settlement fields, as its venue states them (a field the venue leaves out is absent). */
export const settlementFieldsShape = z.object({
  /** Kalshi's `strike_type`: greater, greater_or_equal, less, less_or_equal, between, functional, custom, structured. */
  strikeType: z.string().optional(),
  floorStrike: z.number().optional(),
  capStrike: z.number().optional(),
  functionalStrike: z.string().optional(),
  /** Kalshi's `rules_secondary` (pmxt-core keeps only `rules_primary` when both are set). */
  rulesSecondary: z.string().optional(),
  /** Kalshi's series' and event's `settlement_sources`; Polymarket's `resolutionSource` (a URL is a `url`). */
  sources: z.array(z.object({ name: z.string().optional(), url: z.string().optional() })).optional(),
});
export type SettlementFields = z.infer<typeof settlementFieldsShape>;

/** Stored fields as the extractor reads them; anything that is not the shape reads as none. */
export function parseSettlementFields(value: unknown): SettlementFields | undefined {
  if (value === null || value === undefined) return undefined;
  const parsed = settlementFieldsShape.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** What each rule term is. */
export const ruleTerms = ["trigger", "act", "stage", "conditions", "rank", "observation", "deadline", "deadlineZone", "bound", "seats", "members", "source", "station", "windowStart"] as const;
export type RuleTerm = (typeof ruleTerms)[number];

/**
 * Terms compared but not weighed: every record read from rules states its trigger, and the fitted
 * decision's counts of terms alike and said on one side were fitted without the others. A conflict
 * on any of them still caps the pair at overlap.
 */
export const comparedOnly: ReadonlySet<RuleTerm> = new Set<RuleTerm>(["trigger", "rank", "deadline", "seats", "members"]);

/** One term as a market's rules state it: a canonical value to compare and the rules' own words. */
export interface StatedTerm {
  value: string;
  wording: string;
  /** Implied by the wording rather than stated (a stage read from "win the election"): it can conflict with a stated term, and is otherwise counted as unsaid. */
  implied?: boolean;
}

export type RuleTermsOf = Partial<Record<RuleTerm, StatedTerm>>;

/** A term both rules state differently, with each side's wording. */
export interface RuleDifference {
  term: RuleTerm;
  a: string;
  b: string;
}

/** The words around a match, as the rules write them (for display). */
function around(text: string, index: number, length: number): string {
  const start = Math.max(0, text.lastIndexOf(" ", Math.max(0, index - 40)) + 1);
  const endSpace = text.indexOf(" ", Math.min(text.length, index + length + 40));
  const end = endSpace === -1 ? text.length : endSpace;
  return `${start > 0 ? "…" : ""}${text.slice(start, end).trim()}${end < text.length ? "…" : ""}`;
}

function stated(text: string, re: RegExp, value: (m: RegExpExecArray) => string): StatedTerm | undefined {
  const m = re.exec(text);
  if (m === null) return undefined;
  return { value: value(m), wording: around(text, m.index, m[0].length) };
}

// An announcement counts as the act itself ("an announcement of X ... will resolve this market to
// Yes", "announcements ... qualify"): a rule that resolves on news of the act, not on the act.
// Also: the act is itself an announcement ("officially announces that", "a publicly announced
// agreement", "announces <a person> as <a> pick"), or the rules encompass one ("an announcement ... is
// also encompassed"), or the Yes sentence pays on the act or its announcement ("leaves office or
// announces they will leave office").
const triggerRe =
  /\b(?:an?|the|any)\s+(?:official\s+|public\s+)?announcement\s+(?:of|that|by)\b[^.]{0,160}?\b(?:will|shall)\s+(?:immediately\s+)?(?:resolve|count|qualify|suffice)|\bannouncements?\b[^.]{0,160}?\b(?:will|shall)\s+(?:count|qualify|suffice)|\bannouncements?\b[^.]{0,160}?\b(?:is|are)\s+(?:also\s+)?(?:encompassed|sufficient|included)|\b(?:officially|publicly|formally)\s+announces?\s+(?:that|it|they)\b|\bdefined\s+as\s+an?\s+(?:publicly|officially)\s+announced\b|\bannounces?\s+(?:\p{Lu}[\p{L}.'-]*\s+){1,4}as\s+(?:his|her|their|its|the)\s+(?:pick|choice|nominee)\b|\bannounces?\b[^.]{0,60}\bthat\s+(?:they|it|he|she)\s+(?:bought|purchased|acquired|made)\b|\bor\s+(?:officially\s+|publicly\s+|formally\s+)?announces?\s+(?:that\s+)?(?:they|he|she|it)\s+(?:will|would|intends?)\b/iu;

// The Yes sentence's act is itself announcing ("If <subject> has announced the opening of ...", "if
// <subject> announces that ..."): the subject announces, so news of the act is what resolves. A
// passive "the nominees are announced" says when a list is known, not what counts, and is not read.
// A period inside an abbreviation ("U.S.") does not end the sentence.
const announcesRe = /\bif\s+(?:[^.]|\.(?=\S)){0,100}?\b(?:has\s+|have\s+)?(?:officially\s+|publicly\s+|formally\s+)?announce[sd]?\s+(?:the|a|an|its|their|that)\b/iu;

// An announcement that counts only with the act's own instrument ("an announcement will qualify only
// if it is accompanied by a binding agreement") is the act, not news of it.
const onlyWithRe = /^\s*(?:for\s+(?:a|the)\s+\W?yes\W?\s+resolution\s+)?(?:only\s+(?:if|when)|if\s+and\s+only\s+if|solely\s+if)\b/i;

// The Yes sentence pays on another event besides the act ("If <the act>, or <he> <does another>, before
// <date>, then ..."): an alternative clause whose subject is the act's own, by pronoun.
const alternativeRe = /\bif\s+(?:[^.]|\.(?=\S)){0,200}?,\s+or\s+(?:if\s+)?(?:he|she|they|it)\s+(?:\p{L}+\s+){0,2}?\p{L}+(?:s|ed)\b[^.]{0,80}?,\s+(?:before|by|then|on|in)\b/iu;

// The Yes sentence pays on a report of the act ("If <subject> is reported to have visited ..."): news of
// it by others resolves, neither the act itself nor the subject's own announcement.
const reportedRe = /\b(?:is|are|be|been)\s+(?:credibly\s+|publicly\s+)?reported\s+(?:to\s+(?:have\s+)?|as\s+having\s+)\p{L}+/iu;

/**
 * What counts: an announcement of the act, or the act itself. The Yes paragraphs are read first;
 * then every other paragraph of the rules, where venues write the clauses that widen what counts
 * ("an announcement ... is also encompassed by the Payout Criterion") or narrow it ("an announcement
 * will qualify only if it is accompanied by ..."): a clause of either kind settles the term wherever
 * it stands. Undefined when the rules state neither (the act itself, by default).
 */
function triggerOf(yes: string, rules: string): StatedTerm | undefined {
  for (const text of [yes, rules]) {
    const re = new RegExp(triggerRe.source, "giu");
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const wording = around(text, m.index, m[0].length);
      if (onlyWithRe.test(text.slice(m.index + m[0].length))) return { value: "event", wording };
      return { value: "announcement", wording };
    }
  }
  return stated(yes, announcesRe, () => "announcement") ?? stated(yes, reportedRe, () => "report") ?? stated(yes, alternativeRe, () => "the act or another event");
}

// The act that fills an office: a nomination, a Senate confirmation, or an appointment by any means
// (confirmation, a recess appointment, or otherwise). Read from the question too: a question that
// asks whether someone is "confirmed" or "formally nominated" says what its rules require.
const actPatterns: Array<[RegExp, string]> = [
  [/\bconfirmed\s+by\s+the\s+(?:U\.?S\.?\s+)?Senate\b|\bSenate[- ]confirmed\b|\bbe\s+confirmed\s+(?:as|to)\b/i, "confirmed by the Senate"],
  [/\b(?:formally\s+)?nominated\s+by\s+the\s+President\b|\bformally\s+nominat(?:e|es|ed)\b|\bnext\s+nominate\b/i, "nominated"],
  [/\b(?:appoints?|appointed)\b[^.]{0,120}\b(?:recess\s+appointment|otherwise\s+officially)\b|\bconsidered\s+to\s+have\s+been\s+appointed\b/i, "appointed by any means"],
  // Membership: an invitation extended by a body against one a candidate accepts.
  [/\baccepts?\s+(?:an?\s+|the\s+)?(?:formal\s+)?invitation\b/i, "invitation accepted"],
  [/\binvit(?:e|es|ed)\s+(?:an?\s+|the\s+|any\s+)?(?:new\s+)?(?:country|countries|member|members|state|states|nation|nations)\b/i, "invitation extended"],
];

// The stage of a contest: a party's nomination, a primary, the general election, its first round, a
// runoff. Winning "the election" with no narrower stage named is the general election; being a
// party's nominee (or winning its nomination) is the nomination, another contest.
const stagePatterns: Array<[RegExp, string]> = [
  [/\bnomin(?:ee|ees|ation)\b/i, "nomination"],
  [/\bprimary\b|\bprimaries\b/i, "primary"],
  [/\bgeneral\s+election\b/i, "general"],
  [/\bfirst\s+round\b|\b1st\s+round\b/i, "first round"],
  [/\b(?:second\s+round|2nd\s+round|run-?off)\b/i, "runoff"],
];

// Winning "the election" with no narrower stage named: the general election, implied rather than
// stated (`implied`): it conflicts with a stage the other side names, and is otherwise not counted.
const impliedGeneralRe = /\bwins?\b(?:(?!primar|nomina|special|round|run-?off|caucus)[^.?;]){0,60}\belection\b/i;

// When the measured value is read: at any moment of the window, or once, for a period or at its end.
const observationPatterns: Array<[RegExp, string]> = [
  [/\bat\s+any\s+(?:point|time|moment)\b|\bneed\s+only\s+be\s+met\s+once\b|\bany\s+(?:\d+\s+|one\s+)?minute\s+candle\b/i, "at any moment of the window"],
  [/\bin\s+Q[1-4]\s+(?:of\s+)?\d{4}\b|\bat\s+the\s+end\s+of\s+(?:the\s+)?(?:day|week|month|quarter|year|\d{4})\b|\bfor\s+the\s+(?:month|quarter|year)\s+(?:of|ending)\b/i, "one reading for a period"],
];

// A condition the Yes paragraph adds to the act: that it be scheduled by a date, a popular vote, a
// signed or formal written instrument, a first time, a full approval, first among a set, no interim
// holder, a second event that must follow it.
const conditionPatterns: Array<[RegExp, string]> = [
  [/\bis\s+scheduled\s+(?:for|to)\b[^.;]{0,60}\bby\s+\p{L}+\.?\s+\d|\bmust\s+be\s+scheduled\b/iu, "scheduled by a date"],
  [/\bpopular\s+vote\b/i, "popular vote"],
  [/\bformal\s+written\s+agreement\b|\bsigned\s+by\s+(?:authorized\s+)?representatives\b/i, "signed written agreement"],
  [/\bfull\s+(?:FDA\s+)?approval\b/i, "full approval"],
  [/\b(?:issue[sd]?|sign(?:s|ed)?|through|by|via)\s+(?:an?\s+)?executive\s+(?:order|action)\b|\btakes\s+(?:an?\s+)?executive\s+action\b/i, "by executive order or action"],
  // A race among a set: the act must come first among the listed subjects ("is the first leader among
  // the above to leave office"), not merely happen.
  [/\bfirst\s+(?:\w+\s+){0,3}among\b|\bfirst\s+(?:of|among)\s+(?:the\s+)?(?:above|following|listed)\b/i, "first among a set"],
  // An interim or acting holder of the office does not count ("any interim/caretaker Prime Minister
  // will not count"): only the next holder in full.
  [/\b(?:interim|acting)\b[^.]{0,120}\b(?:not\s+(?:count|be\s+considered|qualify)|excluded|will\s+not)\b|\b(?:not|excluding)\b[^.]{0,40}\b(?:interim|acting)\b/i, "interim holder excluded"],
  // "If <subject> becomes President and <the act>": the subject must first take the office.
  [/\bif\s+[^.,;]{0,80}?\bbecomes?\s+(?:the\s+)?(?:President|Prime\s+Minister|Chancellor|Governor|Mayor|Speaker)\b[^.;]{0,40}?\s+and\s/i, "takes the office first"],
  // A second event must follow the act ("opens a review after which the licence is revoked"): the act
  // alone does not resolve Yes. "after which this market resolves" is when, not what, and is not read.
  // A definition the act must meet ("Qualifying elections must allow voting across ..."): only acts
  // of that kind count.
  [/\bqualifying\s+\p{L}+\s+must\b/iu, "a definition the act must meet"],
  // A member the rules leave out of the count ("a party below the threshold will not be counted as
  // part of the coalition"): the act is counted on the others only.
  [/\b(?:will|shall)\s+not\s+be\s+counted\s+as\s+(?:part\s+of|an?|one\s+of)\b/i, "a member left out of the count"],
  // The act in each period of the window ("sightings in every week of 2031"), not once in it.
  [/\b(?:in|during)\s+(?:every|each)\s+(?:single\s+)?(?:day|week|month|quarter|year)\b/i, "the act in every period"],
  // How one act is counted ("a raise of 40 points would be counted as 4 raises"): the count is of units of a
  // size, not of acts, and a rule counting acts ("cuts 5 times") settles another way.
  [/\b(?:would|will|shall)\s+(?:be\s+)?(?:considered|counted|count)\s+(?:as\s+)?(?:\d+|two|three|four|several|multiple)\s+\p{L}+/iu, "a unit each act counts as"],
  [/\bafter\s+which\s+(?!(?:this|the)\s+market\b|it\s+(?:will|shall)\s+resolve)[^.;]{0,80}?\b(?:is|are|was|were|has\s+been|have\s+been)\s+\p{L}+ed\b/iu, "another event must follow"],
];

// The place the Yes sentence requires among a contest's parties or candidates: first (the most seats
// or votes, more than any other), or another (an ordinal before "most", "finishes 3rd").
// A rule that asks for a place is another question than one that asks the same party to pass a bar
// (enter a parliament, form a group) or to take part.
const placeWord: Record<string, string> = { first: "1", "1st": "1", second: "2", "2nd": "2", third: "3", "3rd": "3" };
const rankRe =
  /\b(?:(second|third|2nd|3rd)\s+)?(?:most|(?:highest|largest|greatest)\s+number\s+of(?:\s+the)?)\s+(?:seats|votes)\b|\bmore\s+(?:seats|votes)\s+than\s+any\s+other\b|\b(?:gets?|finish(?:es)?|places?|comes?\s+in|ends?\s+(?:up\s+)?in)\s+(1st|2nd|3rd|first|second|third)\b/i;
const rankOf = (m: RegExpExecArray) => `place ${placeWord[(m[1] ?? m[2] ?? "first").toLowerCase()] ?? "1"}`;

// A clock time with its zone; the zone is what is compared.
const zoneRe = /\b\d{1,2}(?::\d{2})?\s*(?:a\.?m\.?|p\.?m\.?)?\s*\(?\b(ET|EST|EDT|Eastern(?: Standard| Daylight)? Time|UTC|GMT|PT|PST|PDT|Pacific Time|CT|CST|CDT|Central Time)\b/i;
const zoneOf = (z: string): string => {
  const u = z.toUpperCase();
  if (u.startsWith("E")) return "ET";
  if (u === "UTC" || u === "GMT") return "UTC";
  if (u.startsWith("P")) return "PT";
  return "CT";
};

// A bound on a number: "at least N", "N or more", "over N", "above N" (and their strict forms).
const inclusiveBefore = /\b(at least|no less than|greater than or equal to|equal to or (?:greater|more|higher) than|not less than|at or (?:above|over|higher than)|equal to or above)\s+\$?(\d[\d,]*(?:\.\d+)?)/i;
const inclusiveAfter = /\$?(\d[\d,]*(?:\.\d+)?)\s*(?:%|\w+)?\s+(or (?:more|above|higher|greater|over))\b/i;
const exclusiveBefore = /\b(more than|greater than|higher than|above|exceeds?|exceeding|over)\s+\$?(\d[\d,]*(?:\.\d+)?)(?!\s*(?:%\s*)?or (?:more|above|higher|greater|equal))/i;

// A bracket between two numbers, each edge said included or excluded: "between 25% (inclusive) and
// 30% (exclusive)", "between $4 (inclusive) and $5 (inclusive)", "5-10 bps (inclusive)", "between 4
// and 5, inclusive".
const bracketNumber = String.raw`\$?\s?(\d[\d,]*(?:\.\d+)?)\s*(?:%|°\s*[FC]?|bps)?`;
const edgeWord = String.raw`\(?\s*(inclusive|exclusive)\s*\)?`;
const bracketEachEdge = new RegExp(String.raw`\bbetween\s+${bracketNumber}\s*${edgeWord}\s+and\s+${bracketNumber}\s*${edgeWord}`, "i");
const bracketBothEdges = new RegExp(String.raw`(?:\bbetween\s+)?${bracketNumber}\s*(?:-|–|to|and)\s*${bracketNumber}\s*(?:[\p{L}]+\s*)?,?\s*\(?\s*(inclusive|both\s+inclusive|inclusive\s+of\s+both)\b`, "iu");
// A bracket whose edges are not said to be included or excluded: "between 25% and 30%", "25% to 30%",
// "between 45-46°" (a value exactly on an edge may fall on either side).
const bracketUnstated = new RegExp(String.raw`\bbetween\s+${bracketNumber}\s*(?:-|–|to|and)\s*${bracketNumber}|(?<![\d.,])${bracketNumber}\s+to\s+${bracketNumber}`, "i");

const isYear = (raw: string | undefined) => /^(?:19|20)\d{2}$/.test(raw ?? "");

/**
 * A bracket's edges as the rules state them: `≥ 25 < 30` when each edge is said included or
 * excluded; `25..30 edges unstated` when the rules give the two numbers and no word on the edges
 * (two years are a window, not a bracket).
 */
export function bracketOf(text: string): StatedTerm | undefined {
  const num = (raw: string | undefined) => Number((raw ?? "").replace(/,/g, ""));
  const each = stated(text, bracketEachEdge, (m) => `${m[2]?.toLowerCase() === "inclusive" ? "≥" : ">"} ${num(m[1])} ${m[4]?.toLowerCase() === "inclusive" ? "≤" : "<"} ${num(m[3])}`);
  if (each !== undefined) return each;
  const both = stated(text, bracketBothEdges, (m) => `≥ ${num(m[1])} ≤ ${num(m[2])}`);
  if (both !== undefined) return both;
  const m = bracketUnstated.exec(text);
  if (m === null) return undefined;
  const lo = m[1] ?? m[3];
  const hi = m[2] ?? m[4];
  if (isYear(lo) && isYear(hi) && !/[%$°]/.test(m[0])) return undefined;
  if (/\b(?:inclusive|exclusive|strictly)\b/i.test(text.slice(m.index + m[0].length, m.index + m[0].length + 40))) return undefined;
  if (num(lo) >= num(hi)) return undefined;
  return { value: `${num(lo)}..${num(hi)} edges unstated`, wording: around(text, m.index, m[0].length) };
}

/**
 * The two numbers of a bracket whose rules say nothing of its edges (`25..30 edges unstated`, or
 * `25..30 edges open` when its event's other brackets show a value can land on an edge the words do
 * not settle, `settleEdges`), else null.
 */
export function unstatedEdges(value: string): [number, number] | null {
  const m = /^(-?\d+(?:\.\d+)?)\.\.(-?\d+(?:\.\d+)?) edges (?:unstated|open)$/.exec(value);
  return m === null ? null : [Number(m[1]), Number(m[2])];
}

/** Whether an unsaid bracket's edges are open (`settleEdges`): a value its event shows can land on one, settled by no word. */
const openEdges = (value: string) => value.endsWith(" edges open");

/** A market's range as its rules' Yes paragraphs state it, for its event's other markets to read (`settleEdges`): [low, high], null unbounded. */
export type EventRange = [number | null, number | null];

// A bound at or below a number ("10% or below"), read only as an event's range (`rangeOfRules`).
const orBelowRe = /\$?(\d[\d,]*(?:\.\d+)?)\s*(?:%|°\s*[FC]?|bps)?\s+or\s+(?:below|less|lower|fewer|under)\b/i;

/** The range a market's rules' Yes paragraphs state (a bracket, or a bound on one side), else none. */
export function rangeOfRules(description: string | null): EventRange | undefined {
  if (description === null || description.trim() === "") return undefined;
  const yes = yesParagraphs(description);
  const bound = boundOf(yes);
  if (bound !== undefined) {
    const edges = unstatedEdges(bound.value);
    if (edges !== null) return edges;
    const sides = boundSides(bound.value);
    if (sides.lower !== undefined || sides.upper !== undefined) return [sides.lower?.n ?? null, sides.upper?.n ?? null];
  }
  const below = orBelowRe.exec(yes);
  return below === null ? undefined : [null, Number((below[1] ?? "").replace(/,/g, ""))];
}

// Rules that say the measure is read in whole units ("Temperatures are in whole degrees", "rounded to
// the nearest whole number", "an integer").
const wholeUnitsRe = /\bwhole\s+(?:degrees?|numbers?|units?|percent(?:age)?\s+points?)\b|\bnearest\s+(?:whole|integer)\b|\bintegers?\b/i;

/**
 * Whether a bracket's measure takes whole values only: a temperature in degrees (reported in whole
 * degrees), a count written with whole numbers, or rules that say so. A share, a price or a rate
 * can fall between any two numbers.
 */
function wholeMeasure(wording: string, rules: string, edges: [number, number]): boolean {
  if (wholeUnitsRe.test(rules)) return true;
  if (!edges.every(Number.isInteger)) return false;
  const m = bracketUnstated.exec(wording);
  const written = m === null ? wording : wording.slice(m.index, m.index + m[0].length + 12);
  return !/[%$¢]|\b(?:bps|basis|percent|percentage|cents?|dollars?|usd)\b/i.test(written);
}

/**
 * An unsaid bracket read with its event's other markets' ranges (`rangeOfRules`). For a measure of
 * whole values, brackets that share no edge with it (91 to 92 beside 93 to 94: no whole value falls
 * between them) leave each edge value only this bracket to fall in: both ends are included. A
 * bracket of the event that starts or ends on one of its numbers (25 to 30 beside 30 to 35), or, for
 * a measure that is not whole, one next to it with a gap between (24.9 beside 25: the venue rounds,
 * and how is unsaid), shows that a value can land on an edge the words do not settle: the edges are
 * open. Without the event's other ranges nothing is known and the edges stay unsaid.
 */
export function settleEdges(bound: StatedTerm, rules: string, siblings: readonly EventRange[] | undefined): StatedTerm {
  const own = unstatedEdges(bound.value);
  if (own === null || openEdges(bound.value) || siblings === undefined) return bound;
  const [lo, hi] = own;
  const others = siblings.filter(([x, y]) => !(x === lo && y === hi));
  if (others.length === 0) return bound;
  const low = (x: number | null) => x ?? -Infinity;
  const high = (y: number | null) => y ?? Infinity;
  // Another range that starts or ends on one of its numbers, or reaches into it.
  const touches = others.some(([x, y]) => low(x) <= hi && high(y) >= lo);
  const whole = wholeMeasure(bound.wording, rules, own);
  const width = hi - lo;
  const next = others.some(([x, y]) => (high(y) < lo && lo - high(y) < width) || (low(x) > hi && low(x) - hi < width));
  if (touches || (!whole && next)) return { value: `${lo}..${hi} edges open`, wording: `${bound.wording} (the event's other brackets: ${describeRanges(others, lo, hi)})` };
  if (!whole) return bound;
  return { value: `≥ ${lo} ≤ ${hi}`, wording: `${bound.wording} (whole values; the event's other brackets share no edge with it)` };
}

/** The event's ranges nearest a bracket, for display ("20 to 24.9, 30.1 or more"). */
function describeRanges(ranges: readonly EventRange[], lo: number, hi: number): string {
  const near = [...ranges].sort((p, q) => Math.abs((p[0] ?? p[1] ?? 0) - (lo + hi) / 2) - Math.abs((q[0] ?? q[1] ?? 0) - (lo + hi) / 2)).slice(0, 2);
  return near.map(([x, y]) => (x === null ? `${y} or less` : y === null ? `${x} or more` : `${x} to ${y}`)).join(", ");
}

// The venue's rule for a value exactly on a bracket's edge, in any paragraph: "if the reported value
// falls exactly between two brackets, this market will resolve to the higher range bracket".
const edgeRuleRe = /\b(?:falls?|lands?|is)\s+(?:exactly\s+)?(?:between\s+two\s+brackets|on\s+(?:a|the)\s+(?:boundary|edge|border)\b[^.]{0,40}?)[^.]{0,80}?\b(higher|upper|lower)\b/i;

/**
 * A bound with the rules' edge rule applied: a value on the edge goes to the higher bracket, so a
 * lower edge is included and an upper one excluded ("greater than 80" reads "≥ 80"); to the lower
 * bracket, the reverse. A bound whose edges the rules leave unsaid takes the rule's edges.
 */
function withEdgeRule(bound: StatedTerm, rules: string): StatedTerm {
  const m = edgeRuleRe.exec(rules);
  if (m === null) return bound;
  const higher = (m[1] ?? "").toLowerCase() !== "lower";
  const edges = unstatedEdges(bound.value);
  const value =
    edges !== null
      ? `${higher ? "≥" : ">"} ${edges[0]} ${higher ? "<" : "≤"} ${edges[1]}`
      : bound.value.replace(/(^|\s)[>≥](?=\s)/, `$1${higher ? "≥" : ">"}`).replace(/(^|\s)[<≤](?=\s)/, `$1${higher ? "<" : "≤"}`);
  return value === bound.value ? bound : { value, wording: `${bound.wording} (${around(rules, m.index, m[0].length)})` };
}

function boundOf(text: string): StatedTerm | undefined {
  const bracket = bracketOf(text);
  if (bracket !== undefined) return bracket;
  const num = (raw: string | undefined) => Number((raw ?? "").replace(/,/g, ""));
  const inc = stated(text, inclusiveBefore, (m) => `≥ ${num(m[2])}`) ?? stated(text, inclusiveAfter, (m) => `≥ ${num(m[1])}`);
  if (inc !== undefined) return inc;
  return stated(text, exclusiveBefore, (m) => `> ${num(m[2])}`);
}

// A weather station or an airport the rules read from: the capitalised words before the word.
const stationRe = /((?:\b\p{Lu}[\p{L}.'-]*\s+){1,4})(?:International\s+)?(Airport|Station|Observatory)\b/u;

// A window that opens when the market is listed, against one that opens on a stated date.
const fromListingRe = /\bbetween\s+(?:the\s+)?(?:this\s+)?market(?:'s)?\s+(?:creation|listing|launch|opening)\b|\b(?:since|after|from)\s+(?:the\s+)?(?:time\s+(?:of\s+)?)?(?:this\s+market\s+(?:was\s+)?|market\s+)?(?:listing|listed|launch|created|creation|opened|open)\b|\b(?:this|the)\s+market\s+(?:was\s+)?(?:listed|created|opened|launched)\b/i;

// A deadline with its date: "before Aug 1, 2031", "by December 31, 2030, 11:59 PM ET", "no later
// than June 30, 2031", "between January 1 and December 31, 2030". "before" a day ends the window as
// that day starts; "by", "through", "no later than" and a window's closing day end it as the day ends.
const monthNumber: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const monthWord = String.raw`(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\.?`;
// The date a window opens, with its year when the phrase gives one ("after December 20, 2030",
// "between January 1 and market close on December 31, 2031": the year its closing date states).
const fromDateRe = new RegExp(
  String.raw`\b(?:between|from|starting(?:\s+on)?|beginning(?:\s+on)?|after)\s+${monthWord}\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+((?:19|20)\d{2})\b)?(?:[^.;]{0,60}?\b((?:19|20)\d{2})\b)?`,
  "iu",
);

/** A window's opening as a term value: `date 2031-01-01` when its year is known, else `date`. */
function windowStartOf(m: RegExpExecArray): string {
  const month = monthNumber[(m[1] ?? "").slice(0, 3).toLowerCase()];
  const day = Number(m[2]);
  const year = Number(m[3] ?? m[4]);
  if (month === undefined || !Number.isInteger(year) || day < 1 || day > 31) return "date";
  return `date ${new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10)}`;
}

/** Two window openings a day or less apart ("after December 31" and "from January 1"), or one without its date, are the same. */
function sameWindowStart(x: string, y: string): boolean {
  if (!x.startsWith("date") || !y.startsWith("date")) return false;
  if (x === "date" || y === "date") return true;
  return Math.abs(Date.parse(x.slice(5)) - Date.parse(y.slice(5))) <= dayMs;
}

const deadlineRe = new RegExp(String.raw`\b(before|prior\s+to|by|through|no\s+later\s+than|between\s+[^.;]{1,40}?\s+and)\s+${monthWord}\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+((?:19|20)\d{2})\b`, "giu");
const dayMs = 86_400_000;

/**
 * The latest deadline any paragraph of the rules states (the Yes sentence, or a fallback: "if no
 * vote occurs before ..., this market will resolve to Yes"), as the day the window closes at its
 * start (`2031-08-01`): the last instant the act, or its result, can still count.
 */
function deadlineOf(rules: string): StatedTerm | undefined {
  let latest: { at: number; wording: string } | undefined;
  for (const m of rules.matchAll(deadlineRe)) {
    const month = monthNumber[(m[2] ?? "").slice(0, 3).toLowerCase()];
    const day = Number(m[3]);
    if (month === undefined || day < 1 || day > 31) continue;
    const endOfDay = !/^(?:before|prior)/i.test(m[1] ?? "");
    const at = Date.UTC(Number(m[4]), month - 1, day) + (endOfDay ? dayMs : 0);
    if (latest === undefined || at > latest.at) latest = { at, wording: around(rules, m.index, m[0].length) };
  }
  return latest === undefined ? undefined : { value: new Date(latest.at).toISOString().slice(0, 10), wording: latest.wording };
}

/** Two deadlines a day or less apart (a zone, or "11:59 PM" against the next day's start) are the same. */
const sameDeadline = (x: string, y: string) => Math.abs(Date.parse(x) - Date.parse(y)) <= dayMs;

// A bar on seats, against a majority or control of a chamber. A count ("170 or more", "at least 170
// seats") is not a majority claim: a majority depends on the chamber's size, and a majority
// government on forming one.
const seatCountRe = /\b(?:at\s+least|no\s+(?:less|fewer)\s+than)\s+(\d{2,4})\b|\b(\d{2,4})\s+(?:seats\s+)?or\s+more\b|\b(\d{2,4})\+/i;
const chamber = String.raw`(?:House|Senate|Commons|parliament|chamber|legislature|Bundestag|Congress|Assembly)`;
// A majority of seats or of a chamber, or a party's majority ("a Zorbian Party majority"): not a
// majority of anything else ("the majority of voters", "a majority vote").
const majorityRe = new RegExp(
  String.raw`\bmajority\s+(?:of\s+(?:the\s+)?seats|government|in\s+(?:the\s+)?${chamber})\b|\b(?:an?|outright|absolute|\p{Lu}[\p{L}/-]*)\s+majority\b(?!\s+(?:of|vote))|\bcontrols?\s+(?:of\s+)?(?:the\s+)?${chamber}\b`,
  "iu",
);
const chamberRe = new RegExp(String.raw`\b(?:seats?|government|${chamber})\b`, "i");

/** The seats a Yes sentence or the question requires: a count, else a majority or control of a chamber. */
function seatsOf(text: string): StatedTerm | undefined {
  for (const sentence of text.split(/(?<=[.?!])\s+/)) {
    if (!chamberRe.test(sentence)) continue;
    const count = /\bseats?\b/i.test(sentence) ? stated(sentence, seatCountRe, (m) => `≥ ${m[1] ?? m[2] ?? m[3]} seats`) : undefined;
    if (count !== undefined) return count;
  }
  for (const sentence of text.split(/(?<=[.?!])\s+/)) {
    if (!chamberRe.test(sentence)) continue;
    const majority = stated(sentence, majorityRe, () => "majority");
    if (majority !== undefined) return majority;
  }
  return undefined;
}

// A coalition's member list: in brackets after its name ("the Harbour Coalition (Blue, Green,
// Red)"), or the subject of forming or making up a government ("Will Blue, Green, and Red form the
// next government?"). Each member a capitalised name of up to four words.
const memberName = String.raw`\p{Lu}[\p{L}\p{N}/.'’-]*(?:\s+\p{Lu}[\p{L}\p{N}/.'’-]*){0,3}`;
const memberListRe = new RegExp(String.raw`(${memberName}(?:\s*,\s*${memberName})*,?\s*(?:and|&|\+)\s*${memberName})\s+(?:form|forms|make\s+up|makes\s+up|govern|make|makes)\b`, "u");
const bracketedMembersRe = /\bcoalition\s*\(([^()]{3,160})\)|\(([^()]{3,160})\)\s+(?:form|forms|make\s+up|makes\s+up)\b/iu;

/** A list's members, normalised ("Blue, Green, and Red" -> blue|green|red), or none under two. */
function membersOf(list: string): string[] {
  const members = list
    .replace(/^(?:will|would|can|could|do|does|did|if|whether|that)\s+/i, "")
    .split(/\s*,\s*(?:and\s+|&\s*)?|\s+and\s+|\s*[&+]\s*/i)
    .map((m) => m.replace(/^the\s+/i, "").trim().toLowerCase())
    .filter((m) => m !== "");
  return members.length < 2 ? [] : [...new Set(members)].sort();
}

/** The members of the coalition the question or Yes sentence names, when it lists them. */
function coalitionMembersOf(text: string): StatedTerm | undefined {
  if (!/\b(?:coalition|government)\b/i.test(text)) return undefined;
  for (const re of [bracketedMembersRe, memberListRe]) {
    const m = re.exec(text);
    const members = m === null ? [] : membersOf(m[1] ?? m[2] ?? "");
    if (m !== null && members.length >= 2) return { value: members.join(" | "), wording: around(text, m.index, m[0].length) };
  }
  return undefined;
}

/** The paragraph of the rules that says when the market resolves Yes (else their first paragraph). */
export function yesParagraph(description: string | null): string | null {
  if (description === null) return null;
  const paragraphs = clean(description.slice(0, 4000))
    .split(/\n+/)
    .map((p) => p.trim())
    .filter((p) => p !== "");
  const yes = paragraphs.find((p) => /\bresolves?\s+to\W{0,2}yes\b/i.test(p)) ?? paragraphs[0];
  return yes === undefined ? null : yes.slice(0, 600);
}

/** Every paragraph of the rules that says what resolves the market Yes ("... will resolve this market to Yes"). */
function yesParagraphs(description: string): string {
  const paragraphs = clean(description.slice(0, 4000))
    .split(/\n+/)
    .map((p) => p.trim())
    .filter((p) => p !== "");
  const yes = paragraphs.filter((p) => /\bresolves?\b[^.]{0,40}\W{0,2}yes\b/i.test(p));
  return (yes.length > 0 ? yes : paragraphs.slice(0, 1)).join(" ").replace(/\s+/g, " ");
}

/**
 * A bound as the venue states it in fields (Kalshi's `strike_type` with `floor_strike` and
 * `cap_strike`): `greater` is above the floor, `greater_or_equal` at or above it, `less` below the
 * cap, `less_or_equal` at or below it, `between` from the floor to the cap, both included (the
 * rules' text writes such a bracket as "X to Y" or "between X-Y (inclusive)"). Other kinds (custom,
 * functional, structured) state no bound as a field.
 */
export function boundFromFields(fields: SettlementFields | undefined): StatedTerm | undefined {
  if (fields?.strikeType === undefined) return undefined;
  const { strikeType: kind, floorStrike: floor, capStrike: cap } = fields;
  const wording = [`strike_type ${kind}`, floor === undefined ? "" : `floor_strike ${floor}`, cap === undefined ? "" : `cap_strike ${cap}`].filter((w) => w !== "").join(", ");
  if (kind === "greater" && floor !== undefined) return { value: `> ${floor}`, wording };
  if (kind === "greater_or_equal" && floor !== undefined) return { value: `≥ ${floor}`, wording };
  if (kind === "less" && cap !== undefined) return { value: `< ${cap}`, wording };
  if (kind === "less_or_equal" && cap !== undefined) return { value: `≤ ${cap}`, wording };
  if (kind === "between" && floor !== undefined && cap !== undefined) return { value: `≥ ${floor} ≤ ${cap}`, wording };
  return undefined;
}

/** The rules read for settlement terms: the main rules and, when the venue states them apart, the secondary ones. */
export function rulesWithSecondary(description: string | null, fields: SettlementFields | undefined): string | null {
  const secondary = fields?.rulesSecondary;
  if (secondary === undefined || secondary === "") return description;
  if (description === null || description.trim() === "") return secondary;
  return description.includes(secondary.slice(0, 200)) ? description : `${description}\n\n${secondary}`;
}

/**
 * The resolution terms a market's rules state (none for a market without rules). What the venue
 * states as fields is read before the text: the bound from the strike fields, the sources from the
 * named settlement sources (the caller passes those, canonical, as `sources` when there are any),
 * the secondary rules with the main ones.
 */
export function readRuleTerms(mainRules: string | null, sources: string[], question = "", fields?: SettlementFields, eventRanges?: readonly EventRange[]): RuleTermsOf {
  const out: RuleTermsOf = {};
  const fieldBound = boundFromFields(fields);
  if (fieldBound !== undefined) out.bound = fieldBound;
  const description = rulesWithSecondary(mainRules, fields);
  const own = clean(question).replace(/\s+/g, " ");
  // What the question itself says the act is (the rules may be missing or say it in other words).
  const askedAct = firstOf(own, actPatterns);
  if (askedAct !== undefined) out.act = askedAct;
  const askedStage = allOf(own, stagePatterns);
  if (askedStage !== undefined) out.stage = askedStage;
  if (description === null || description.trim() === "") {
    const general = askedStage === undefined ? stated(own, impliedGeneralRe, () => "general") : undefined;
    if (general !== undefined) out.stage = { ...general, implied: true };
    return out;
  }
  const rules = clean(description.slice(0, 4000)).replace(/\s+/g, " ");
  const yes = yesParagraphs(description);
  const act = firstOf(rules, actPatterns);
  if (act !== undefined && out.act === undefined) out.act = act;
  // Rules that name both rounds of a two-round contest describe the whole election, not a stage of
  // it: the question's own stage (or none) stands.
  const read = allOf(`${own} ${yes}`, stagePatterns);
  const stage = read?.value === "first round + runoff" ? askedStage : read;
  if (stage !== undefined) out.stage = stage;
  else if (out.stage === undefined) {
    const general = stated(`${own} ${yes}`, impliedGeneralRe, () => "general");
    if (general !== undefined) out.stage = { ...general, implied: true };
  }
  const conditions = allOf(rules, conditionPatterns);
  const observation = firstOf(yes, observationPatterns);
  if (observation !== undefined) out.observation = observation;
  if (conditions !== undefined) out.conditions = conditions;
  // The question says the place as often as the Yes sentence does (rules that resolve "to the party
  // that wins the greatest number of seats" name no Yes).
  const rank = stated(`${own} ${yes}`, rankRe, rankOf);
  if (rank !== undefined) out.rank = rank;
  out.trigger = triggerOf(yes, rules) ?? { value: "event", wording: yes.slice(0, 120) + (yes.length > 120 ? "…" : "") };
  const zone = stated(rules, zoneRe, (m) => zoneOf(m[1] ?? ""));
  if (zone !== undefined) out.deadlineZone = zone;
  // The bound from the venue's fields, else the Yes paragraphs', else (when the rules state the
  // venue's rule for a value on an edge, which says the rules are about the question's bound) the
  // question's; the edge rule then decides which edge is included, and edges it leaves unsaid are
  // read with the event's other brackets (`settleEdges`).
  const textBound = boundOf(yes) ?? (edgeRuleRe.test(rules) ? boundOf(own) : undefined);
  const bound = fieldBound ?? (textBound === undefined ? undefined : settleEdges(withEdgeRule(textBound, rules), rules, eventRanges));
  if (bound !== undefined) out.bound = bound;
  const deadline = deadlineOf(rules);
  if (deadline !== undefined) out.deadline = deadline;
  const seats = seatsOf(`${own} ${yes}`);
  if (seats !== undefined) out.seats = seats;
  const members = coalitionMembersOf(own) ?? coalitionMembersOf(yes);
  if (members !== undefined) out.members = members;
  // Two price feeds of one asset settle one question (the venues' own convention): only the
  // agencies and services that call a result are compared as sources.
  const callers = sources.filter((x) => !priceFeeds.has(x));
  if (callers.length > 0) out.source = { value: callers.join(", "), wording: callers.join(", ") };
  const station = stated(rules, stationRe, (m) => `${(m[1] ?? "").trim().toLowerCase()} ${(m[2] ?? "").toLowerCase()}`);
  if (station !== undefined) out.station = station;
  const listing = stated(yes, fromListingRe, () => "listing");
  const dated = stated(yes, fromDateRe, windowStartOf);
  if (listing !== undefined) out.windowStart = listing;
  else if (dated !== undefined) out.windowStart = dated;
  return out;
}

/** The first pattern of `patterns` the text states, with its words. */
function firstOf(text: string, patterns: Array<[RegExp, string]>): StatedTerm | undefined {
  for (const [re, value] of patterns) {
    const term = stated(text, re, () => value);
    if (term !== undefined) return term;
  }
  return undefined;
}

/** Every pattern of `patterns` the text states (sorted, joined), with the first one's words. */
function allOf(text: string, patterns: Array<[RegExp, string]>): StatedTerm | undefined {
  const found = patterns.map(([re, value]) => ({ value, term: stated(text, re, () => value) })).filter((p) => p.term !== undefined);
  if (found.length === 0) return undefined;
  return { value: found.map((f) => f.value).sort().join(" + "), wording: found.map((f) => f.term?.wording ?? "").join(" / ") };
}

/** A bound's sides ("≥ 5", "< 7", "≥ 5 ≤ 7"): each side's number and whether it is included. */
function boundSides(value: string): { lower?: { n: number; inclusive: boolean }; upper?: { n: number; inclusive: boolean } } {
  const out: ReturnType<typeof boundSides> = {};
  for (const m of value.matchAll(/([<>]|≥|≤)\s*(-?\d+(?:\.\d+)?)/g)) {
    const op = m[1] ?? "";
    const n = Number(m[2]);
    if (op === ">" || op === "≥") out.lower = { n, inclusive: op === "≥" };
    else out.upper = { n, inclusive: op === "≤" };
  }
  return out;
}

/**
 * Whether two bounds differ as a settlement term: the same number on the same side, included on
 * one and not the other (a value exactly on it settles differently). Another number is the
 * interval comparison's concern, not this term's.
 */
function boundsConflict(x: string, y: string): boolean {
  const a = boundSides(x);
  const b = boundSides(y);
  const differ = (p?: { n: number; inclusive: boolean }, q?: { n: number; inclusive: boolean }) => p !== undefined && q !== undefined && p.n === q.n && p.inclusive !== q.inclusive;
  return differ(a.lower, b.lower) || differ(a.upper, b.upper);
}

/**
 * A bracket's edges, when at least one side leaves them unsaid. The same two numbers, one side
 * saying which edges are included and the other saying nothing, is said on one side only (the
 * unsaid side's words allow the stated reading). It is a conflict when the unsaid side's event shows
 * its edges are open (`settleEdges`: a value can land on an edge, or between its bracket and the
 * next, and no word says where it goes), so a value there settles by one side's words and is open
 * on the other's. Neither saying: unknown. Other numbers, or a one-sided bound: the interval
 * comparison's concern, the term stated on one side only.
 */
function bracketEdges(x: string, y: string): TermState {
  const ux = unstatedEdges(x);
  const uy = unstatedEdges(y);
  if (ux !== null && uy !== null) return "unknown";
  const [unsaid, said, open] = ux !== null ? [ux, boundSides(y), openEdges(x)] : [uy, boundSides(x), openEdges(y)];
  if (unsaid === null || said.lower === undefined || said.upper === undefined) return "oneSide";
  return open && said.lower.n === unsaid[0] && said.upper.n === unsaid[1] ? "conflict" : "oneSide";
}

/** How one term of two settlement records compares. */
export type TermState = "same" | "conflict" | "oneSide" | "unknown";

export interface SettlementComparison {
  /** The conflicting terms, each side's wording (A, then B). */
  differences: RuleDifference[];
  /** Each term's state (unknown: neither record states it; never counted as the same). */
  states: Record<RuleTerm, TermState>;
}

/** Whether a record was read from rules at all (every record read from rules states its trigger). */
const hasRules = (r: RuleTermsOf) => r.trigger !== undefined;

/**
 * Compares two settlement records term by term. A term one side's record leaves out is stated on one
 * side only (the other's rules may only be less explicit), except a qualifying condition and a
 * place: a condition one side's rules add to the act ("scheduled by", "popular vote") narrows it,
 * and a place one side's Yes sentence requires ("the most seats") asks another question than a rule
 * that requires none, so either is a conflict when the other side's rules were read and state none.
 */
export function compareSettlement(a: RuleTermsOf, b: RuleTermsOf): SettlementComparison {
  const differences: RuleDifference[] = [];
  const states = {} as Record<RuleTerm, TermState>;
  for (const term of ruleTerms) {
    const x = a[term];
    const y = b[term];
    // An implied term only ever conflicts with the other side's; otherwise it counts as unsaid.
    if (x?.implied === true || y?.implied === true) {
      if (x !== undefined && y !== undefined && x.value !== y.value) {
        states[term] = "conflict";
        differences.push({ term, a: x.wording, b: y.wording });
        continue;
      }
      const own = x?.implied === true ? y : x;
      states[term] = own === undefined || own.implied === true ? "unknown" : "oneSide";
      continue;
    }
    if (x === undefined && y === undefined) {
      states[term] = "unknown";
      continue;
    }
    if (x === undefined || y === undefined) {
      const other = x === undefined ? a : b;
      if ((term === "conditions" || term === "rank") && hasRules(other)) {
        states[term] = "conflict";
        differences.push({ term, a: x?.wording ?? "(no such condition)", b: y?.wording ?? "(no such condition)" });
      } else states[term] = "oneSide";
      continue;
    }
    if (term === "bound" && (unstatedEdges(x.value) !== null || unstatedEdges(y.value) !== null)) {
      const state = bracketEdges(x.value, y.value);
      states[term] = state;
      if (state === "conflict") differences.push({ term, a: x.wording, b: y.wording });
      continue;
    }
    const same =
      x.value === y.value ||
      (term === "bound" && !boundsConflict(x.value, y.value)) || // another number: the interval comparison's concern
      (term === "deadline" && sameDeadline(x.value, y.value)) ||
      (term === "windowStart" && sameWindowStart(x.value, y.value)) ||
      (term === "source" && x.value.split(", ").some((v) => y.value.split(", ").includes(v)));
    states[term] = same ? "same" : "conflict";
    if (!same) differences.push({ term, a: x.wording, b: y.wording });
  }
  return { differences, states };
}

/** The terms both markets' records state differently (the conflicts of `compareSettlement`). */
export function compareRuleTerms(a: RuleTermsOf, b: RuleTermsOf): RuleDifference[] {
  return compareSettlement(a, b).differences;
}

export { describeRuleDifference } from "./reasoning";
