/**
 * Quantity comparator: a threshold or range with its bound and unit on each side.
 */
import type { Interval } from "../extract";
import type { AttributeState, Cmp } from "./types";

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
export function compareIntervals(a: Interval, b: Interval): { cmp: Cmp | "incomparable"; tick: boolean } {
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
export function complements(a: Interval, b: Interval): boolean {
  const g = step(a, b);
  const [low, high] = a.hi !== null && a.lo === null ? [a, b] : [b, a];
  if (low.lo !== null || low.hi === null || high.hi !== null || high.lo === null) return false;
  const L = closed(low, g);
  const H = closed(high, g);
  return Math.abs(H.lo - L.hi - g) <= g * 1e-3;
}

export interface QuantityComparison {
  /**
   * `same` when the two read the same (within a tick), `conflict` when both state one and they
   * differ (nested, apart or in other units), `oneSide` when one side states none, `absent` when
   * neither does.
   */
  state: AttributeState;
  /** A's quantity relative to B's (`equal` when absent); null when the units cannot be compared. */
  cmp: Cmp | null;
  /** Equal only within one reporting step. */
  tick: boolean;
  /** Apart, and together every value ("≤ 4.4%" and "> 4.4%"): one is the other's No. */
  complement: boolean;
  a: Interval | null;
  b: Interval | null;
}

/** The quantity comparator. */
export function compareQuantity(a: Interval | null, b: Interval | null): QuantityComparison {
  if (a === null || b === null) return { state: a === null && b === null ? "absent" : "oneSide", cmp: a === null && b === null ? "equal" : null, tick: false, complement: false, a, b };
  const r = compareIntervals(a, b);
  if (r.cmp === "incomparable") return { state: "conflict", cmp: null, tick: false, complement: false, a, b };
  return { state: r.cmp === "equal" ? "same" : "conflict", cmp: r.cmp, tick: r.tick, complement: r.cmp === "disjoint" && complements(a, b), a, b };
}
