/**
 * A match's comparison as text, for display only (no server code: the dashboard imports it). The
 * engine returns and stores its differences as data (compare/types.ts `Difference`); this module
 * renders them, and the sentence that closes a reasoning. Nothing here reads text back.
 */
import type { Difference } from "./compare/types";

export type { Difference } from "./compare/types";

/** What each rule term is called in text. */
export const ruleTermLabel: Record<string, string> = {
  trigger: "what counts",
  act: "the act required",
  stage: "stage of the contest",
  conditions: "added condition",
  rank: "place required",
  observation: "when the value is read",
  deadline: "deadline",
  deadlineZone: "deadline time zone",
  bound: "bound",
  seats: "seats required",
  members: "coalition members",
  source: "settlement source",
  station: "station",
  ranking: "the leaderboard read",
  windowStart: "start of the window",
};

/** One rule difference as text, naming the sides by venue. */
export function describeRuleDifference(d: { term: string; a: string; b: string }, venueA: string, venueB: string): string {
  return `${ruleTermLabel[d.term] ?? d.term}: ${venueA} "${d.a}" vs ${venueB} "${d.b}"`;
}

const orNone = (v: string[]) => (v.length === 0 ? "none" : v.join("/"));
const said = (venue: string, ws: string[]) => (ws.length === 0 ? "" : `${venue} says ${ws.join(", ")}`);
const saidBoth = (A: string, a: string[], B: string, b: string[]) => [said(A, a), said(B, b)].filter((x) => x !== "").join("; ");

/** One difference as a clause, naming the sides by venue (A's first). */
export function describeDifference(d: Difference, A: string, B: string): string {
  switch (d.attribute) {
    case "context":
      return d.state === "conflict" ? `different ${d.label ?? "context"}: ${A} ${orNone(d.a)} vs ${B} ${orNone(d.b)}` : `${d.label ?? "context"} on one side only`;
    case "option":
      return `different option: ${A} ${d.a.join(" ")} vs ${B} ${d.b.join(" ")}`;
    case "quantity":
      return `thresholds: ${A} ${d.a.join(" ")} vs ${B} ${d.b.join(" ")}`;
    case "time":
      return `different time: ${A} ${d.a.join(" ")} vs ${B} ${d.b.join(" ")}`;
    case "season":
      return `different season: ${A} ${d.a.join("/")} vs ${B} ${d.b.join("/")}`;
    case "names":
      return `names differ (${saidBoth(A, d.a, B, d.b)}, the other does not)`;
    case "positions":
      return `positions differ (${A} ${d.a.join("/") || "none"} vs ${B} ${d.b.join("/") || "none"})`;
    case "wording":
      if (d.state === "conflict") return `what "${d.label ?? "the act"}" is about differs: ${A} ${d.a.join(" ")} vs ${B} ${d.b.join(" ")}`;
      return `wording differs (${saidBoth(A, d.a, B, d.b)}, the other does not)`;
    case "date":
      return "a date on one side only";
    case "negation":
      return "one question is negated";
    case "criteria":
      return `${d.a.length > 0 ? A : B} resolves Yes on any of several criteria, the other on one`;
    case "rules":
      if (d.state === "oneSide") return `${ruleTermLabel[d.label ?? ""] ?? d.label ?? "a rule term"}: ${d.a.length > 0 ? `${A} "${d.a.join(" ")}", ${B}` : `${B} "${d.b.join(" ")}", ${A}`} states none (unknown, never the same)`;
      return describeRuleDifference({ term: d.label ?? "", a: d.a.join(" "), b: d.b.join(" ") }, A, B);
    case "ambiguity":
      return `one of the two markets reads the same as ${d.a[0] ?? "another"} other market(s) of the other venue, so which one is the same question is ambiguous`;
  }
}

/** Differences as one clause list: rule terms together ("rules differ (...)"). */
export function describeDifferences(list: readonly Difference[], A: string, B: string): string {
  const rules = list.filter((d) => d.attribute === "rules");
  const clauses = list.filter((d) => d.attribute !== "rules").map((d) => describeDifference(d, A, B));
  if (rules.length > 0) clauses.push(`rules differ (${rules.map((d) => describeDifference(d, A, B)).join("; ")})`);
  return clauses.join("; ");
}

/**
 * Why an overlap is not an identity: the differences the engine found, as text; null for other
 * relations or when none was recorded.
 */
export function whyNotIdentity(relation: string, differences: readonly Difference[] | null | undefined, venueA = "this market", venueB = "the other"): string | null {
  if (relation !== "overlap" || differences === null || differences === undefined || differences.length === 0) return null;
  return capitalize(describeDifferences(differences, venueA, venueB));
}

/** A fitted confidence as the probability it is: "93%" (never 100% unless it is 1). */
export function formatProbability(confidence: number): string {
  const percent = confidence * 100;
  if (percent > 99 && percent < 100) return "> 99%";
  if (percent > 0 && percent < 1) return "< 1%";
  return `${Math.round(percent)}%`;
}

/** What Yes stands for on a market, when its Yes outcome says more than "Yes" and more than the title. */
export function yesStandsFor(market: { title: string; outcomes: ReadonlyArray<{ label: string }> }): string | null {
  const label = market.outcomes[0]?.label.trim();
  if (label === undefined || label === "" || /^yes$/i.test(label) || label === market.title.trim()) return null;
  return label;
}

export function capitalize(s: string): string {
  return s.length === 0 ? s : `${s[0]?.toUpperCase() ?? ""}${s.slice(1)}`;
}

/** How a verdict's reasoning closes: what the relation means. */
export type Tail =
  | { kind: "identity" | "related" | "relatedTime" | "relatedContext" | "otherTime" | "none" }
  | { kind: "subset" | "superset" | "disjoint" | "complement" }
  | { kind: "ambiguous"; others: number };

/** The reasoning: the clauses, then what the relation means (A and B are the venues). */
export function renderReasoning(notes: readonly string[], tail: Tail, A: string, B: string): string {
  const body = `${capitalize(notes.join("; "))}.`;
  switch (tail.kind) {
    case "none":
      return body;
    case "identity":
      return `${body} Yes on one is Yes on the other.`;
    case "subset":
      return `${body} Yes on ${A} implies Yes on ${B}.`;
    case "superset":
      return `${body} Yes on ${B} implies Yes on ${A}.`;
    case "disjoint":
      return `${body} They cannot both resolve Yes.`;
    case "complement":
      return `${body} They cannot both resolve Yes: one is the other's No.`;
    case "related":
      return `${body} Related: both can resolve Yes, neither implies the other.`;
    case "relatedTime":
      return `${body} Related: both can resolve Yes.`;
    case "relatedContext":
      return `${body} Related questions that can both resolve Yes.`;
    case "otherTime":
      return `${body} The same measure at another time: both can resolve Yes.`;
    case "ambiguous":
      return `${body} Not an identity: ${describeDifference({ attribute: "ambiguity", state: "conflict", a: [String(tail.others)], b: [] }, A, B)}.`;
  }
}
