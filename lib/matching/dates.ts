/**
 * Dates, deadlines, windows and hours, read with chrono-node (a maintained natural-language date
 * parser: "Mar 3, 2031 at 9am PST", "end of October", "this year", "Jul 2026"). Two forms chrono
 * does not read are added here: a bare year ("in 2026", "before 2027") and a quarter ("Q2 2026").
 * The words around a date say what it bounds: "by"/"before" make a deadline, "end of" an instant.
 */
import * as chrono from "chrono-node";
import { clean } from "./text";

export const DAY = 86_400_000;

/** When the question is decided: before a deadline (window) or at one instant. */
export interface TimeScope {
  kind: "window" | "instant";
  /** Start (ms), when the text gives one; a deadline alone leaves it open. */
  start: number | null;
  /** Exclusive end (ms). */
  end: number;
  /** Hour of day (0-23, venue's local time) for an instant, when stated. */
  hour: number | null;
  /** What was read, for the reasoning. */
  label: string;
}

export interface DateMention {
  prep: string;
  start: number;
  end: number;
  granularity: "day" | "month" | "year";
  text: string;
  index: number;
}

export function utc(y: number, m: number, d: number): number {
  return Date.UTC(y, m, d);
}

/** The preposition just before a date ("by", "before", "end of", ...). */
const prepBefore = /\b(by|before|on|in|at|until|through|thru|after|from|to|for|of|ending|end of|ending in)\s+(?:the\s+)?$/;

const yearRe = /\b(20\d{2})\b(?!\s*[-/]\s*\d{2}\b)(?!\s*%)/g;
const quarterRe = /\b(?:q([1-4])|(first|second|third|fourth)\s+quarter(?:\s+of)?)\s*,?\s*(20\d{2})\b/gi;
const ordinalQuarter: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4 };

/**
 * Amounts blanked out (same length, so positions hold) before chrono reads a text: it would read
 * "$3.00 on January 5" as 3 o'clock and "above 4.5 on May 1" as half past four.
 */
function maskAmounts(text: string): string {
  return text
    .replace(/\$\s?\d[\d,]*(?:\.\d+)?|\d[\d,]*\.\d+(?!\s*(?:a\.?m|p\.?m))|\d+(?:\.\d+)?\s*%/gi, (m) => " ".repeat(m.length))
    .replace(afterYearVerb, "  ");
}

// The verb "be" after a year ("will <month> 2031 be the ..."): chrono reads a year followed by "BE"
// as a Buddhist-era year (543 years earlier), whatever its case.
const afterYearVerb = /(?<=\b\d{4}\s+)be\b/g;

/**
 * chrono's readings of a text at a reference date. A market's question, titles and rule sentence
 * are each read several times (for dates, for the hour, and to blank dates out before numbers and
 * names are read), always as `maskAmounts(clean(text))`: each distinct text is parsed once. The
 * readings are never modified by their readers. (Profiled: chrono was about 40% of extraction.)
 */
const readings = new Map<string, chrono.ParsedResult[]>();
const READINGS_KEPT = 4096;

function chronoParse(masked: string, reference: Date): chrono.ParsedResult[] {
  const key = `${reference.getTime()}\u0000${masked}`;
  let found = readings.get(key);
  if (found === undefined) {
    found = chrono.parse(masked, reference);
    if (readings.size >= READINGS_KEPT) readings.clear();
    readings.set(key, found);
  }
  return found;
}

/** Date spans chrono reads in `text` (weekday-only and time-only readings are dropped). */
function chronoDates(text: string, reference: Date) {
  return chronoParse(maskAmounts(text), reference).filter((r) => r.start.isCertain("day") || r.start.isCertain("month") || r.start.isCertain("year"));
}

/** Every date in `text`; a year left out is taken from the market's resolution date. */
export function findDates(text: string, reference: Date, defaultYear: (month: number, day: number) => number): DateMention[] {
  const cleaned = clean(text);
  const lower = cleaned.toLowerCase();
  const out: DateMention[] = [];
  const covered: Array<[number, number]> = [];
  for (const r of chronoDates(cleaned, reference)) {
    const s = r.start;
    const prefix = lower.slice(0, r.index);
    let prep = prepBefore.exec(prefix)?.[1] ?? "";
    if (/^end of\b/i.test(r.text)) prep = "end of";
    const month = (s.get("month") ?? 1) - 1;
    const day = s.get("day") ?? 1;
    covered.push([r.index, r.index + r.text.length]);
    if (s.isCertain("day") && s.isCertain("month")) {
      const year = s.isCertain("year") ? (s.get("year") ?? 0) : defaultYear(month, day);
      const start = utc(year, month, day);
      out.push({ prep, start, end: start + DAY, granularity: "day", text: r.text, index: r.index });
    } else if (s.isCertain("month")) {
      // A bare month needs a preposition ("in June"): "May" alone is more often the verb.
      if (!s.isCertain("year") && prep === "") continue;
      const year = s.isCertain("year") ? (s.get("year") ?? 0) : defaultYear(month, 28);
      out.push({ prep, start: utc(year, month, 1), end: utc(year, month + 1, 1), granularity: "month", text: r.text, index: r.index });
    } else {
      const year = s.get("year") ?? 0;
      out.push({ prep, start: utc(year, 0, 1), end: utc(year + 1, 0, 1), granularity: "year", text: r.text, index: r.index });
    }
  }
  const inChrono = (i: number) => covered.some(([a, b]) => i >= a && i < b);
  for (const m of lower.matchAll(quarterRe)) {
    const index = m.index ?? 0;
    const q = m[1] !== undefined ? Number(m[1]) : (ordinalQuarter[m[2] ?? ""] ?? 0);
    if (q < 1 || q > 4) continue;
    covered.push([index, index + m[0].length]);
    const year = Number(m[3]);
    const prep = prepBefore.exec(lower.slice(0, index))?.[1] ?? "";
    out.push({ prep, start: utc(year, (q - 1) * 3, 1), end: utc(year, q * 3, 1), granularity: "month", text: m[0], index });
  }
  for (const m of lower.matchAll(yearRe)) {
    const index = m.index ?? 0;
    if (inChrono(index) || /\$\s*$/.test(lower.slice(Math.max(0, index - 3), index))) continue;
    const year = Number(m[1]);
    const prep = prepBefore.exec(lower.slice(0, index))?.[1] ?? "";
    out.push({ prep, start: utc(year, 0, 1), end: utc(year + 1, 0, 1), granularity: "year", text: m[0], index });
  }
  return out;
}

/** `text` with every date and time chrono reads blanked out (names and numbers are read from the rest). */
export function withoutDates(text: string, reference: Date): string {
  let out = clean(text);
  for (const r of chronoDates(out, reference).reverse()) out = `${out.slice(0, r.index)} ${" ".repeat(r.text.length)}${out.slice(r.index + r.text.length)}`;
  return out;
}

/** The hour of day a text states ("12pm EST", "noon", "5:00 PM ET"), as written. */
export function findHour(text: string, reference: Date): number | null {
  for (const r of chronoParse(maskAmounts(clean(text)), reference)) if (r.start.isCertain("hour")) return r.start.get("hour");
  return null;
}

const deadlinePreps = new Set(["by", "before", "until", "through", "thru"]);

/** The window or instant the dates describe. */
export function scopeFromDates(dates: DateMention[], lower: string): TimeScope | null {
  if (dates.length === 0) return null;
  const endOf = /end of\s*$/;
  const deadlines = dates.filter((d) => deadlinePreps.has(d.prep));
  if (deadlines.length > 0) {
    // "before Feb 1, 2031" ends at that day; "by Jan 31, 2031" and "before 2031" include/exclude as written.
    const ends = deadlines.map((d) => (d.prep === "before" ? d.start : d.end));
    const end = Math.max(...ends);
    const year = dates.find((d) => d.granularity === "year" && d.prep === "in" && d.end === end);
    return { kind: "window", start: year ? year.start : null, end, hour: null, label: deadlines.map((d) => d.text.trim()).join(", ") };
  }
  // "at the end of 2031" / "end of October": the last day of the period.
  for (const d of dates) {
    const prefix = lower.slice(Math.max(0, d.index - 12), d.index);
    if (d.prep === "end of" || d.prep === "ending" || endOf.test(prefix)) {
      if (d.granularity === "day") return { kind: "instant", start: d.start, end: d.end, hour: null, label: d.text.trim() };
      return { kind: "instant", start: d.end - DAY, end: d.end, hour: null, label: `end of ${d.text.replace(/^.*?(of|ending)\s+/i, "").trim()}` };
    }
  }
  const days = dates.filter((d) => d.granularity === "day");
  if (days.length > 0) {
    const last = days.reduce((a, b) => (b.start > a.start ? b : a));
    return { kind: "instant", start: last.start, end: last.end, hour: null, label: last.text.trim() };
  }
  const months = dates.filter((d) => d.granularity === "month");
  const pick = months.length > 0 ? months.reduce((a, b) => (b.start > a.start ? b : a)) : dates.reduce((a, b) => (b.start > a.start ? b : a));
  return { kind: "window", start: pick.start, end: pick.end, hour: null, label: pick.text.trim() };
}
