/**
 * Numbers, units, thresholds and directions: one parser for every venue's way of stating a
 * quantity ("above $120,000", "$100,000 or above", "≥ 3.0%", "91-92°", "Cut >25bps", "No change").
 */
import { stopwords } from "./lexicon";
import { clean } from "./text";

export type Unit = "usd" | "pct" | "bps" | "deg" | "count";

/** A set of values of the measured quantity; null bounds are unbounded. */
export interface Interval {
  unit: Unit;
  lo: number | null;
  loStrict: boolean;
  hi: number | null;
  hiStrict: boolean;
  /** Decimal places written (sets the reporting step of percentages). */
  decimals: number;
}

const scaleWords: Record<string, number> = { k: 1e3, thousand: 1e3, m: 1e6, mm: 1e6, million: 1e6, b: 1e9, bn: 1e9, billion: 1e9, t: 1e12, trillion: 1e12 };

const quantityRe =
  /(\$)?\s*(\d[\d,]*(?:\.\d+)?)(?:\s*(k|thousand|mm|m|million|bn|b|billion|t|trillion)(?![a-z]))?\s*(\+)?\s*(%|bps(?![a-z])|°\s*[fc]?|degrees(?![a-z]))?/gi;

interface Quantity {
  value: number;
  unit: Unit;
  decimals: number;
  index: number;
  length: number;
  plus: boolean;
}

function findQuantities(text: string, original: string = text): Quantity[] {
  const out: Quantity[] = [];
  for (const m of text.matchAll(quantityRe)) {
    const [all, dollar, digits = "", scale, plus, unitRaw] = m;
    const index = m.index ?? 0;
    // A number joined to a word is part of a name, not a quantity ("U-3", "Q4", "COVID-19", "H.R. 22" is kept).
    const at = index + all.indexOf(digits);
    if (dollar === undefined && /[a-z][-/]?$/i.test(text.slice(Math.max(0, at - 2), at))) continue;
    // A rank ("#1") is a position, not a quantity; a bare number after a capitalised word is part
    // of a name ("Billboard 200", "Section 702"), unless a unit or scale says it is a quantity.
    if (text[at - 1] === "#") continue;
    // A function word capitalised as its sentence's first word ("Will 12-15 sightings ...") names nothing.
    const capitalised = /(?:^|[^.?!]\s)(\p{Lu}[\p{L}&.]*)\s$/u.exec(original.slice(Math.max(0, at - 30), at));
    if (dollar === undefined && unitRaw === undefined && scale === undefined && capitalised !== null && !stopwords.has((capitalised[1] ?? "").toLowerCase())) continue;
    const raw = digits.replace(/,/g, "");
    let value = Number(raw);
    if (!Number.isFinite(value)) continue;
    const decimals = raw.includes(".") ? (raw.split(".")[1]?.length ?? 0) : 0;
    if (scale !== undefined) value *= scaleWords[scale.toLowerCase()] ?? 1;
    const unitText = (unitRaw ?? "").toLowerCase().replace(/\s+/g, "");
    let unit: Unit;
    if (dollar !== undefined) unit = "usd";
    else if (unitText === "%") unit = "pct";
    else if (unitText === "bps") unit = "bps";
    else if (unitText.startsWith("°") || unitText === "degrees") unit = "deg";
    else {
      // A bare year or a day of the month is not a threshold.
      if (scale === undefined && /^(19|20)\d{2}$/.test(raw)) continue;
      unit = "count";
    }
    out.push({ value, unit, decimals, index, length: all.length, plus: plus !== undefined });
  }
  return out;
}

const upWords = /(above|over|more than|greater than|higher than|exceed(?:s|ing)?|at least|at or above|or more than|reach(?:es)?|hit|hits|surpass(?:es)?|top|tops|beyond)\s*$/;
const downWords = /(below|under|less than|lower than|fewer than|at most|at or below|dip to|fall to|drop to)\s*$/;
const orUp = /^\s*(?:or|and)\s+(above|higher|more|greater|over|up)/;
const orDown = /^\s*(?:or|and)\s+(below|lower|less|fewer|under)/;

/** Normalizes symbols into words so one set of patterns reads every venue's style. */
function symbolsToWords(text: string): string {
  return clean(text)
    .replace(/≥\s*/g, " at least ")
    .replace(/≤\s*/g, " at most ")
    .replace(/>\s*=\s*/g, " at least ")
    .replace(/<\s*=\s*/g, " at most ")
    .replace(/>\s*/g, " above ")
    .replace(/<\s*/g, " below ")
    .replace(/↑\s*/g, " reach ")
    .replace(/↓\s*/g, " dip to ");
}

/**
 * The words this parser reads as a direction, a bound or a policy move (in their canonical forms
 * too): once a side's threshold is read, they are part of it, not wording to compare.
 */
export const quantityWords = new Set(
  (
    "above below over under more less fewer greater higher lower least most exceed exceeds exceeding reach reaches hit hits surpass surpasses " +
    "top tops beyond between exactly or and to at up down cut cuts decrease decreases lowers reduce reduces reduction hike hikes increase " +
    "increases raise raises change maintain maintains unchanged pause pauses rate rates bps basis point points"
  ).split(" "),
);

export const moveDown = /\b(cut|cuts|decrease|decreases|lower|lowers|reduce|reduces|reduction)\b/i;
export const moveUp = /\b(hike|hikes|increase|increases|raise|raises)\b/i;
export const moveNone = /\b(no change|maintain|maintains|unchanged|pause|pauses|leaves? .* unchanged)\b/i;

/** A threshold, range or exact value of one quantity, with direction; null when the text has none. */
export function parseInterval(text: string): Interval | null {
  const cased = symbolsToWords(text);
  const t = cased.toLowerCase();
  const quantities = findQuantities(t, t.length === cased.length ? cased : t);
  const bps = quantities.filter((q) => q.unit === "bps");
  if (bps.length > 0 || (quantities.length === 0 && moveNone.test(t) && /\b(rates?|fed|bps)\b|no change/.test(t))) {
    return parseMove(t, bps[0]);
  }
  if (quantities.length === 0) return null;
  const q = quantities[0];
  if (q === undefined) return null;
  const before = t.slice(0, q.index);
  const after = t.slice(q.index + q.length);
  // Ranges: "61-62°", "61 to 62°", "between 5% and 6%".
  const rangeMatch = /^\s*(?:-|to|and)\s*(\$)?\s*(\d[\d,]*(?:\.\d+)?)/.exec(after);
  if (rangeMatch !== null) {
    const second = quantities[1];
    if (second !== undefined && (second.unit === q.unit || second.unit === "count" || q.unit === "count")) {
      const unit = q.unit === "count" ? second.unit : q.unit;
      return { unit, lo: q.value, loStrict: false, hi: second.value, hiStrict: false, decimals: Math.max(q.decimals, second.decimals) };
    }
  }
  const unit = q.unit === "count" && quantities[1] !== undefined && quantities[1].unit !== "count" ? quantities[1].unit : q.unit;
  const base = { unit, decimals: q.decimals };
  const lead = before.slice(-24);
  if (q.plus || orUp.test(after)) return { ...base, lo: q.value, loStrict: false, hi: null, hiStrict: false };
  if (orDown.test(after)) return { ...base, lo: null, loStrict: false, hi: q.value, hiStrict: false };
  const up = upWords.exec(lead);
  if (up !== null) {
    const inclusive = /at least|at or above|reach|hit|surpass|top/.test(up[1] ?? "");
    return { ...base, lo: q.value, loStrict: !inclusive, hi: null, hiStrict: false };
  }
  const down = downWords.exec(lead);
  if (down !== null) {
    const inclusive = /at most|at or below|dip|fall|drop/.test(down[1] ?? "");
    return { ...base, lo: null, loStrict: false, hi: q.value, hiStrict: !inclusive };
  }
  return { ...base, lo: q.value, loStrict: false, hi: q.value, hiStrict: false };
}

/** A policy-rate move as an interval of the signed change in bps ("cut 25bps" = [-25, -25]). */
function parseMove(t: string, q: Quantity | undefined): Interval {
  const none = { unit: "bps" as const, lo: 0, loStrict: false, hi: 0, hiStrict: false, decimals: 0 };
  if (q === undefined || q.value === 0) return none;
  const sign = moveDown.test(t) ? -1 : 1;
  const before = t.slice(0, q.index).slice(-16);
  const after = t.slice(q.index + q.length);
  const v = q.value * sign;
  const atLeast = q.plus || orUp.test(after) || /at least\s*$/.test(before);
  const moreThan = /(above|more than|over|greater than)\s*$/.test(before);
  if (atLeast) return sign > 0 ? { ...none, lo: v, hi: null } : { ...none, lo: null, hi: v };
  if (moreThan) return sign > 0 ? { ...none, lo: v, loStrict: true, hi: null } : { ...none, lo: null, hi: v, hiStrict: true };
  return { ...none, lo: v, hi: v };
}
