/**
 * Rules comparator: the settlement sources both name, and the rule terms (what counts, deadline
 * zone, bound, source, station, window start) both rules state differently; a deadline one side
 * states that the other's question runs past (`deadlineNotMet`).
 */
import type { Features } from "../extract";
import { stationMeasures } from "../lexicon";
import { compareSettlement, comparedOnly, ruleTerms, type RuleDifference, type RuleTerm, type TermState } from "../rules";
import type { AttributeState, Cmp } from "./types";

export interface RulesComparison {
  /** Resolution sources: a shared one (`same`), none shared (`conflict`), or not both named. */
  sources: AttributeState;
  sharedSources: string[];
  /** Rule terms both state differently, each side's wording (A, then B). */
  differences: RuleDifference[];
  /** Settlement terms both records state alike, and those one states and the other leaves unsaid (the terms of `comparedOnly` are not counted). */
  same: RuleTerm[];
  oneSide: RuleTerm[];
  /** A measure read at a weather station (`stationMeasures`) whose station the two records do not both state alike: unknown, never the same. */
  stationUnknown: boolean;
  /**
   * The leaderboard one record's rules read the outcome from, when the other's name none (A's,
   * then B's; the unnamed side ""): which leaderboard, and its settings, decide who is first, and
   * an unnamed one is unknown, never the same. Null when both or neither name one.
   */
  leaderboardOneSide: { a: string; b: string } | null;
}

/** Whether a record's rules read the outcome from a leaderboard (a ranking whose first place settles it). */
const readsLeaderboard = (f: Features) => f.ruleWords.some((w) => w === "leaderboard" || w === "leaderboards");

function leaderboardOneSide(a: Features, b: Features): { a: string; b: string } | null {
  const [x, y] = [readsLeaderboard(a), readsLeaderboard(b)];
  return x === y ? null : { a: x ? "a leaderboard" : "", b: y ? "a leaderboard" : "" };
}

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * A deadline one side's rules state (`own`) that the other side's question does not meet, as the
 * other side's words for display; null when it is met. The other market asks about a window (its
 * question's, else its rules' Yes paragraph's) that runs on past the deadline: an act after the
 * deadline and inside that window settles the two differently, unless the event is scheduled
 * before the deadline (either market's resolution date, where its venue closes it, falls on or
 * before it: the awards ceremony held in March meets "if no winner is declared by June 30"). An
 * instant, or a window that closes by the deadline, meets it.
 */
function deadlineNotMet(own: Features, other: Features): string | null {
  const deadline = own.rules?.deadline;
  if (deadline === undefined) return null;
  const closes = Date.parse(deadline.value);
  const window = other.time ?? other.ruleTime;
  if (!Number.isFinite(closes) || window === null || window.kind !== "window" || window.end <= closes + DAY) return null;
  const scheduled = [own.resolution, other.resolution].filter((r): r is number => typeof r === "number" && Number.isFinite(r));
  if (scheduled.some((r) => r <= closes + DAY)) return null;
  return `(no deadline: its window runs to ${isoDay(window.end - 1)}, its event not scheduled by ${deadline.value})`;
}

/**
 * The rules comparator. Rule terms are compared for every pair whose headline reads the same or
 * nested (`cmp` is the relation so far; a pair that cannot both be Yes has none to compare). A
 * bound's inclusivity was compared with the thresholds when they read differently (a nesting);
 * read from the rules it matters only where the thresholds read the same (`quantityCmp`).
 */
export function compareRules(a: Features, b: Features, cmp: Cmp, quantityCmp: Cmp): RulesComparison {
  let sources: AttributeState = "absent";
  let sharedSources: string[] = [];
  if (a.sources.length > 0 && b.sources.length > 0) {
    sharedSources = a.sources.filter((s) => b.sources.includes(s));
    sources = sharedSources.length > 0 ? "same" : "conflict";
  } else if (a.sources.length > 0 || b.sources.length > 0) sources = "oneSide";
  const atStation = [a, b].some((f) => (f.concepts.indicator ?? []).some((m) => stationMeasures.has(m)));
  if (cmp === "disjoint") return { sources, sharedSources, differences: [], same: [], oneSide: [], stationUnknown: atStation, leaderboardOneSide: null };
  const settlement = compareSettlement(a.rules ?? {}, b.rules ?? {});
  const differences = settlement.differences.filter((d) => d.term !== "bound" || quantityCmp === "equal");
  if (settlement.states.deadline === "oneSide") {
    const late = a.rules?.deadline !== undefined ? deadlineNotMet(a, b) : deadlineNotMet(b, a);
    if (late !== null) differences.push(a.rules?.deadline !== undefined ? { term: "deadline", a: a.rules.deadline.wording, b: late } : { term: "deadline", a: late, b: b.rules?.deadline?.wording ?? "" });
  }
  // The place, the deadline, the seats and the members are compared, not weighed (`comparedOnly`).
  const counted = (state: TermState) => ruleTerms.filter((t) => !comparedOnly.has(t) && settlement.states[t] === state);
  return { sources, sharedSources, differences, same: counted("same"), oneSide: counted("oneSide"), stationUnknown: atStation && settlement.states.station !== "same", leaderboardOneSide: leaderboardOneSide(a, b) };
}
