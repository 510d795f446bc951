/**
 * Rules comparator: the settlement sources both name, and the rule terms (what counts, deadline
 * zone, bound, source, station, window start) both rules state differently.
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
  // The place, the deadline, the seats and the members are compared, not weighed (`comparedOnly`).
  const counted = (state: TermState) => ruleTerms.filter((t) => !comparedOnly.has(t) && settlement.states[t] === state);
  return { sources, sharedSources, differences, same: counted("same"), oneSide: counted("oneSide"), stationUnknown: atStation && settlement.states.station !== "same", leaderboardOneSide: leaderboardOneSide(a, b) };
}
