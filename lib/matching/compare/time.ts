/**
 * Time comparator: the deadline, window or instant each side states, what one side leaves unsaid
 * filled from that market's own context (its rules, its resolution date), and the season.
 */
import type { Features, TimeScope } from "../extract";
import { flip, type AttributeState, type Cmp } from "./types";

const DAY = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function describeTime(t: TimeScope): string {
  if (t.kind === "instant") return `on ${day(t.start ?? t.end - DAY)}${t.hour !== null ? ` at ${t.hour}:00` : ""}`;
  return t.start !== null ? `${day(t.start)} to before ${day(t.end)}` : `before ${day(t.end)}`;
}

/** Time relation of A to B for questions about something happening by a time. */
export function compareEventTimes(a: TimeScope, b: TimeScope): Cmp {
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
export function compareValueTimes(a: TimeScope, b: TimeScope): { cmp: "equal" | "disjoint"; loose: boolean } {
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
  const inside = win.start !== null && t >= win.start && t < win.end && win.end - win.start <= 31 * DAY;
  return { cmp: inside ? "equal" : "disjoint", loose: true };
}

/** Where an undated side's time was taken from, as data. */
export type TimeFilled =
  | { source: "rules"; venue: string; time: TimeScope }
  | { source: "resolution"; venue: string; resolves: number; position: "before" | "inside"; other: TimeScope };

export function describeTimeFilled(f: TimeFilled): string {
  if (f.source === "rules") return `${f.venue}'s rules state ${describeTime(f.time)}`;
  return `${f.venue} resolves ${day(f.resolves)}, ${f.position} the other's ${describeTime(f.other)}`;
}

/**
 * The one undated side's time, read from the Yes paragraph of its rules, when the other side's
 * question states a time. (Its resolution date is not used for that: venues set it to a
 * placeholder, such as the year's last day for a final played in June.) Failing that, the
 * market's own resolution date when it falls inside the other's window.
 */
export function inferTime(a: Features, b: Features): { a: TimeScope | null; b: TimeScope | null; filled: TimeFilled | null } {
  if ((a.time === null) === (b.time === null)) return { a: a.time, b: b.time, filled: null };
  const undated = a.time === null ? a : b;
  const dated = a.time === null ? b.time : a.time;
  // Features stored by an older engine lack the field.
  const found = undated.ruleTime ?? null;
  if (found !== null) {
    const filled: TimeFilled = { source: "rules", venue: undated.venue, time: found };
    return a.time === null ? { a: found, b: b.time, filled } : { a: a.time, b: found, filled };
  }
  // The market's own resolution date says which occasion an undated question is about ("the
  // Oscars" resolving the week of one ceremony). It fills the date only when it falls inside the
  // other side's window (or on its day): a placeholder date far after it fills nothing.
  const r = undated.resolution ?? null;
  if (r === null || dated === null) return { a: a.time, b: b.time, filled: null };
  const slack = 2 * DAY;
  // A market that resolves before the other's window opens is about an earlier occasion: its own
  // context states another time (a conflict, compared as one below).
  const opens = dated.kind === "instant" ? (dated.start ?? dated.end) : dated.start;
  if (opens !== null && r < opens - slack) {
    const own: TimeScope = { kind: "instant", start: r, end: r + DAY, hour: null, label: `resolves ${day(r)}` };
    const filled: TimeFilled = { source: "resolution", venue: undated.venue, resolves: r, position: "before", other: dated };
    return a.time === null ? { a: own, b: b.time, filled } : { a: a.time, b: own, filled };
  }
  const inside = dated.kind === "instant" ? Math.abs(r - (dated.start ?? dated.end)) <= slack : r <= dated.end + slack && (dated.start === null || r >= dated.start - slack);
  if (!inside) return { a: a.time, b: b.time, filled: null };
  return { a: dated, b: dated, filled: { source: "resolution", venue: undated.venue, resolves: r, position: "inside", other: dated } };
}

export interface TimeComparison {
  /** What was filled from one side's own context before comparing. */
  filled: TimeFilled | null;
  /** Each side's time as compared (after filling). */
  a: TimeScope | null;
  b: TimeScope | null;
  /**
   * How they were compared: as the reference period of a value (`value`), as the window of an
   * event (`event`), a level held at an instant against a level reached in a window (`touchVsAt`);
   * `oneSide` or `absent` when not both are dated.
   */
  kind: "value" | "event" | "touchVsAt" | "oneSide" | "absent";
  state: AttributeState;
  /** A's time relative to B's (for `touchVsAt`, the pair's relation from time and level together). */
  cmp: Cmp;
  /** For `touchVsAt`: the instant falls outside the window, so nothing can be said. */
  outside: boolean;
  /** For `touchVsAt`: the quantity's relation, now read together with the time. */
  quantityCmp: Cmp | null;
  /** An instant's hour on one side only, or an instant matched to its month. */
  loose: boolean;
}

/**
 * The time comparator. `quantityCmp` is the quantity comparator's relation when both sides state
 * a quantity (a value question), else null.
 */
export function compareTime(a: Features, b: Features, quantityCmp: Cmp | null): TimeComparison {
  const inferred = inferTime(a, b);
  const timeA = inferred.a;
  const timeB = inferred.b;
  const base = { filled: inferred.filled, a: timeA, b: timeB, outside: false, quantityCmp: null, loose: false };
  if (timeA === null || timeB === null) return { ...base, kind: timeA === null && timeB === null ? "absent" : "oneSide", state: timeA === null && timeB === null ? "absent" : "oneSide", cmp: "equal" };
  const valueQuestion = quantityCmp !== null;
  const touchVsAt = valueQuestion && a.mode !== b.mode;
  if (valueQuestion && !touchVsAt) {
    const t = compareValueTimes(timeA, timeB);
    if (t.cmp === "disjoint") return { ...base, kind: "value", state: "conflict", cmp: "disjoint" };
    return { ...base, kind: "value", state: "same", cmp: "equal", loose: t.loose };
  }
  let cmp = compareEventTimes(timeA, timeB);
  if (!touchVsAt) return { ...base, kind: "event", state: cmp === "equal" ? "same" : "conflict", cmp };
  // A level held at one instant inside the window implies the level was reached in it.
  const at = a.mode === "at" ? timeA : timeB;
  const touch = a.mode === "at" ? timeB : timeA;
  const inside = (at.start ?? at.end) < touch.end && (touch.start === null || (at.start ?? at.end) >= touch.start);
  if (!inside) return { ...base, kind: "touchVsAt", state: "conflict", cmp, outside: true };
  const atIsA = a.mode === "at";
  // A at-level ⊂ B touch-level when A's set of values is inside B's.
  if (atIsA && (quantityCmp === "equal" || quantityCmp === "sub")) cmp = "sub";
  else if (!atIsA && (quantityCmp === "equal" || quantityCmp === "sup")) cmp = "sup";
  else cmp = "overlap";
  return { ...base, kind: "touchVsAt", state: "conflict", cmp, quantityCmp: cmp === "overlap" ? "overlap" : "equal" };
}

export interface SeasonComparison {
  state: AttributeState;
  a: string[];
  b: string[];
}

/** The season comparator: a sports season both state and none shared is another question. */
export function compareSeasons(a: Features, b: Features): SeasonComparison {
  const state: AttributeState =
    a.seasons.length > 0 && b.seasons.length > 0 ? (a.seasons.some((s) => b.seasons.includes(s)) ? "same" : "conflict") : a.seasons.length > 0 || b.seasons.length > 0 ? "oneSide" : "absent";
  return { state, a: a.seasons, b: b.seasons };
}
