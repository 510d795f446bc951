/**
 * The terms of a market's rules that decide how it resolves, read from its rules text, and the
 * comparison of two markets' terms. Two questions with the same headline are different contracts
 * when their rules count different things: an announcement against the event itself, a deadline in
 * another time zone, an inclusive against an exclusive bound, another settlement source or weather
 * station, a window that starts when the market is listed against one that starts on a date.
 *
 * A difference is returned with both sides' own wording, so an analyst reads it side by side; the
 * engine keeps a pair with any rule difference at most `overlap`.
 */
import { priceFeeds } from "./lexicon";
import { clean } from "./text";

/** What each rule term is. */
export const ruleTerms = ["trigger", "deadlineZone", "bound", "source", "station", "windowStart"] as const;
export type RuleTerm = (typeof ruleTerms)[number];

/** One term as a market's rules state it: a canonical value to compare and the rules' own words. */
export interface StatedTerm {
  value: string;
  wording: string;
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
const triggerRe = /\b(?:an?|the|any)\s+(?:official\s+|public\s+)?announcement\s+(?:of|that|by)\b[^.]{0,160}?\b(?:will|shall)\s+(?:immediately\s+)?(?:resolve|count|qualify|suffice)|\bannouncements?\b[^.]{0,80}?\b(?:will|shall)\s+(?:count|qualify|suffice)/i;

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

function boundOf(text: string): StatedTerm | undefined {
  const num = (raw: string | undefined) => Number((raw ?? "").replace(/,/g, ""));
  const inc = stated(text, inclusiveBefore, (m) => `≥ ${num(m[2])}`) ?? stated(text, inclusiveAfter, (m) => `≥ ${num(m[1])}`);
  if (inc !== undefined) return inc;
  return stated(text, exclusiveBefore, (m) => `> ${num(m[2])}`);
}

// A weather station or an airport the rules read from: the capitalised words before the word.
const stationRe = /((?:\b\p{Lu}[\p{L}.'-]*\s+){1,4})(?:International\s+)?(Airport|Station|Observatory)\b/u;

// A window that opens when the market is listed, against one that opens on a stated date.
const fromListingRe = /\bbetween\s+(?:the\s+)?(?:this\s+)?market(?:'s)?\s+(?:creation|listing|launch|opening)\b|\b(?:since|after|from)\s+(?:the\s+)?(?:time\s+(?:of\s+)?)?(?:this\s+market\s+(?:was\s+)?|market\s+)?(?:listing|listed|launch|created|creation|opened|open)\b|\b(?:this|the)\s+market\s+(?:was\s+)?(?:listed|created|opened|launched)\b/i;
const fromDateRe = /\b(?:between|from|starting(?: on)?|beginning(?: on)?|after)\s+(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?\s+\d{1,2}\b/i;

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

/** The resolution terms a market's rules state (none for a market without rules). */
export function readRuleTerms(description: string | null, sources: string[]): RuleTermsOf {
  if (description === null || description.trim() === "") return {};
  const rules = clean(description.slice(0, 4000)).replace(/\s+/g, " ");
  const yes = yesParagraphs(description);
  const out: RuleTermsOf = {};
  const trigger = stated(yes, triggerRe, () => "announcement");
  out.trigger = trigger ?? { value: "event", wording: yes.slice(0, 120) + (yes.length > 120 ? "…" : "") };
  const zone = stated(rules, zoneRe, (m) => zoneOf(m[1] ?? ""));
  if (zone !== undefined) out.deadlineZone = zone;
  const bound = boundOf(yes);
  if (bound !== undefined) out.bound = bound;
  // Two price feeds of one asset settle one question (the venues' own convention): only the
  // agencies and services that call a result are compared as sources.
  const callers = sources.filter((x) => !priceFeeds.has(x));
  if (callers.length > 0) out.source = { value: callers.join(", "), wording: callers.join(", ") };
  const station = stated(rules, stationRe, (m) => `${(m[1] ?? "").trim().toLowerCase()} ${(m[2] ?? "").toLowerCase()}`);
  if (station !== undefined) out.station = station;
  const listing = stated(yes, fromListingRe, () => "listing");
  const dated = stated(yes, fromDateRe, () => "date");
  if (listing !== undefined) out.windowStart = listing;
  else if (dated !== undefined) out.windowStart = dated;
  return out;
}

/** The number of a bound ("≥ 5" -> 5). */
const boundNumber = (v: string) => Number(v.replace(/^[^\d]+/, ""));

/**
 * The terms both markets' rules state and state differently. A term one side's rules leave out is
 * not a difference (the other's rules may only be more explicit), except the trigger: rules that
 * count an announcement against rules whose Yes paragraph counts the event itself.
 */
export function compareRuleTerms(a: RuleTermsOf, b: RuleTermsOf): RuleDifference[] {
  const out: RuleDifference[] = [];
  for (const term of ruleTerms) {
    const x = a[term];
    const y = b[term];
    if (x === undefined || y === undefined || x.value === y.value) continue;
    if (term === "bound" && boundNumber(x.value) !== boundNumber(y.value)) continue; // another number: the interval comparison's concern
    if (term === "source" && x.value.split(", ").some((s) => y.value.split(", ").includes(s))) continue;
    out.push({ term, a: x.wording, b: y.wording });
  }
  return out;
}

export { describeRuleDifference } from "./reasoning";
