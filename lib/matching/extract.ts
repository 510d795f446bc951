import {
  competitionLeague,
  competitionStage,
  gazetteer,
  genericWords,
  longestPhrase,
  monthIndex,
  rewritePhrases,
  rewriteWord,
  stopwords,
  type ConceptType,
} from "./lexicon";

/** What the extractor reads of one catalog market. */
export interface MatchInput {
  id: string;
  venue: string;
  eventId: string;
  category: string;
  /** The market title as stored (Polymarket: "<event title> - <question>"; Kalshi: the event title). */
  title: string;
  eventTitle: string;
  /** The Yes outcome's label (Polymarket groupItemTitle, Kalshi yes_sub_title). */
  yesLabel: string | null;
  /** Rules or description, where venues put dates, thresholds and sources. */
  description: string | null;
  resolutionDate: Date | null;
}

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

export interface Features {
  id: string;
  venue: string;
  eventId: string;
  category: string;
  /** The question as read: what the reasoning quotes. */
  question: string;
  /** Canonical topic tokens (context, without the pick, numbers or dates). */
  topic: string[];
  /** Concepts by type found in the context (not in the pick). */
  concepts: Partial<Record<ConceptType, string[]>>;
  /** The named option Yes stands for (a candidate, party, team, company), canonical tokens. */
  pick: string[] | null;
  interval: Interval | null;
  /** `touch`: the quantity reaches the level at any time in the window; `at`: its value at one time. */
  mode: "touch" | "at";
  time: TimeScope | null;
  /** Season keys like "2026-27". */
  seasons: string[];
  negated: boolean;
  /** Resolves Yes on any of several criteria ("either of the following"). */
  disjunctive: boolean;
  /** Resolution sources named in the rules (lower case). */
  sources: string[];
  /** Tokens for the candidate index: topic, pick, time and threshold keys. */
  keys: string[];
}

const DAY = 86_400_000;

/** Words that say how a level is reached (kept in `mode`, out of the topic). */
const modeWords = new Set(["reach", "reaches", "hit", "hits", "high", "low", "how", "trade", "trades", "dip", "get", "price", "prices"]);

const clean = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[’‘]/g, "'")
    .replace(/[–—]/g, "-")
    .replace(/\*\*/g, "");

/** Lower-cased words with phrases and words rewritten to canonical forms. */
export function canonicalTokens(text: string): string[] {
  const lower = rewritePhrases(
    clean(text)
      .toLowerCase()
      .replace(/'s\b/g, ""),
  );
  const words = lower
    .replace(/[^a-z0-9_&.\- ]+/g, " ")
    .split(/\s+/)
    .map((w) => w.replace(/^[.\-]+|[.\-]+$/g, ""))
    .filter((w) => w !== "");
  return words.map(rewriteWord);
}

interface ConceptHit {
  type: ConceptType;
  canon: string;
}

/** Longest-match gazetteer lookup over canonical tokens. */
function findConcepts(tokens: string[]): { hits: ConceptHit[]; rest: string[] } {
  const hits: ConceptHit[] = [];
  const rest: string[] = [];
  for (let i = 0; i < tokens.length; ) {
    let matched = 0;
    for (let n = Math.min(longestPhrase, tokens.length - i); n >= 1; n -= 1) {
      const phrase = tokens.slice(i, i + n).join(" ");
      const entry = gazetteer.get(phrase);
      if (entry?.type) {
        hits.push({ type: entry.type, canon: entry.canon });
        rest.push(...tokens.slice(i, i + n));
        matched = n;
        break;
      }
    }
    if (matched === 0) {
      rest.push(tokens[i] ?? "");
      i += 1;
    } else i += matched;
  }
  return { hits, rest };
}

// ---------------------------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------------------------

interface DateMention {
  prep: string;
  start: number;
  end: number;
  granularity: "day" | "month" | "year";
  text: string;
  index: number;
}

const monthPattern =
  "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?";
const dateRe = new RegExp(
  `(?:\\b(by|before|on|in|at|until|through|thru|after|from|to|for|of|ending|end of|ending in)\\s+(?:the\\s+)?)?` +
    `(?:\\b${monthPattern}\\s+(\\d{1,2})(?!\\d)(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?|\\b${monthPattern}\\s+(\\d{4})|\\b${monthPattern}\\b(?!\\s+\\d)|\\b(20\\d{2})\\b(?!\\s*[-/]\\s*\\d{2}\\b)(?!\\s*%))`,
  "gi",
);

function utc(y: number, m: number, d: number): number {
  return Date.UTC(y, m, d);
}

/** Every date in `text`; a year left out is taken from the market's resolution date. */
function findDates(text: string, defaultYear: (month: number, day: number) => number): DateMention[] {
  const out: DateMention[] = [];
  const lower = clean(text).toLowerCase();
  for (const m of lower.matchAll(dateRe)) {
    const prep = (m[1] ?? "").trim();
    const index = m.index ?? 0;
    if (m[2] !== undefined && m[3] !== undefined) {
      const month = monthIndex[m[2].replace(/\.$/, "")];
      if (month === undefined) continue;
      const day = Number(m[3]);
      if (day < 1 || day > 31) continue;
      const year = m[4] !== undefined ? Number(m[4]) : defaultYear(month, day);
      const start = utc(year, month, day);
      out.push({ prep, start, end: start + DAY, granularity: "day", text: m[0], index });
    } else if (m[5] !== undefined && m[6] !== undefined) {
      const month = monthIndex[m[5].replace(/\.$/, "")];
      if (month === undefined) continue;
      const year = Number(m[6]);
      out.push({ prep, start: utc(year, month, 1), end: utc(year, month + 1, 1), granularity: "month", text: m[0], index });
    } else if (m[7] !== undefined) {
      const word = m[7].replace(/\.$/, "");
      const month = monthIndex[word];
      // A bare month needs a preposition ("in June"); "may" alone is a verb.
      if (month === undefined || prep === "" || word === "may" || word === "mar") continue;
      const year = defaultYear(month, 28);
      out.push({ prep, start: utc(year, month, 1), end: utc(year, month + 1, 1), granularity: "month", text: m[0], index });
    } else if (m[8] !== undefined) {
      const year = Number(m[8]);
      const before = lower.slice(Math.max(0, index - 8), index + (m[0].length - m[8].length));
      if (/\$\s*$/.test(before)) continue;
      out.push({ prep, start: utc(year, 0, 1), end: utc(year + 1, 0, 1), granularity: "year", text: m[0], index });
    }
  }
  // Quarters: "Q2 2026", "the second quarter of 2026".
  for (const m of lower.matchAll(quarterRe)) {
    const q = m[2] !== undefined ? Number(m[2]) : ordinalQuarter[m[3] ?? ""] ?? 0;
    if (q < 1 || q > 4) continue;
    const year = Number(m[4]);
    out.push({ prep: (m[1] ?? "").trim(), start: utc(year, (q - 1) * 3, 1), end: utc(year, q * 3, 1), granularity: "month", text: m[0], index: m.index ?? 0 });
  }
  return out;
}

const quarterRe = /(?:\b(by|before|in|for|during|end of|until)\s+(?:the\s+)?)?\b(?:q([1-4])|(first|second|third|fourth)\s+quarter(?:\s+of)?)\s*,?\s*(20\d{2})\b/gi;
const ordinalQuarter: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4 };

const deadlinePreps = new Set(["by", "before", "until", "through", "thru"]);

function scopeFromDates(dates: DateMention[], lower: string): TimeScope | null {
  if (dates.length === 0) return null;
  const endOf = /end of\s*$/;
  const deadlines = dates.filter((d) => deadlinePreps.has(d.prep));
  if (deadlines.length > 0) {
    // "before Jan 1, 2027" ends at that day; "by Dec 31, 2026" and "before 2027" include/exclude as written.
    const ends = deadlines.map((d) => (d.prep === "before" ? d.start : d.end));
    const end = Math.max(...ends);
    const year = dates.find((d) => d.granularity === "year" && d.prep === "in" && d.end === end);
    return { kind: "window", start: year ? year.start : null, end, hour: null, label: deadlines.map((d) => d.text.trim()).join(", ") };
  }
  // "at the end of 2026" / "end of June": the last day of the period.
  for (const d of dates) {
    const prefix = lower.slice(Math.max(0, d.index - 12), d.index + d.text.length - d.text.trimStart().length);
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

const hourRe = /\b(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)\s*(?:in the\s+)?(e[sd]?t|et|utc|ct|pt)?\b|\bnoon\b/i;

function findHour(text: string): number | null {
  const m = hourRe.exec(clean(text));
  if (m === null) return null;
  if (m[0].toLowerCase() === "noon") return 12;
  let hour = Number(m[1]) % 12;
  if ((m[3] ?? "").toLowerCase().startsWith("p")) hour += 12;
  return hour;
}

// ---------------------------------------------------------------------------------------------
// Numbers
// ---------------------------------------------------------------------------------------------

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

function findQuantities(text: string): Quantity[] {
  const out: Quantity[] = [];
  for (const m of text.matchAll(quantityRe)) {
    const [all, dollar, digits = "", scale, plus, unitRaw] = m;
    const index = m.index ?? 0;
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

const moveDown = /\b(cut|cuts|decrease|decreases|lower|lowers|reduce|reduces|reduction)\b/i;
const moveUp = /\b(hike|hikes|increase|increases|raise|raises)\b/i;
const moveNone = /\b(no change|maintain|maintains|unchanged|pause|pauses|leaves? .* unchanged)\b/i;

/** A threshold, range or exact value of one quantity, with direction; null when the text has none. */
export function parseInterval(text: string): Interval | null {
  const t = symbolsToWords(text).toLowerCase();
  const quantities = findQuantities(t);
  const bps = quantities.filter((q) => q.unit === "bps");
  if (bps.length > 0 || (quantities.length === 0 && moveNone.test(t) && /\b(rates?|fed|bps)\b|no change/.test(t))) {
    return parseMove(t, bps[0]);
  }
  if (quantities.length === 0) return null;
  const q = quantities[0];
  if (q === undefined) return null;
  const before = t.slice(0, q.index);
  const after = t.slice(q.index + q.length);
  // Ranges: "91-92°", "91 to 92°", "between 3% and 4%".
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

// ---------------------------------------------------------------------------------------------
// The market
// ---------------------------------------------------------------------------------------------

const kalshiRule = /^\s*if\s+(.+?),?\s+then the market resolves to yes/i;

function questionOf(input: MatchInput): string {
  const prefix = `${input.eventTitle} - `;
  if (input.title.startsWith(prefix) && input.title.length > prefix.length) return input.title.slice(prefix.length);
  return input.title;
}

/** The rule sentence of a Kalshi-style description ("If X, then the market resolves to Yes."). */
function ruleSentence(description: string | null): string | null {
  if (description === null) return null;
  const m = kalshiRule.exec(clean(description));
  return m?.[1] ?? null;
}

const notAPick = /^(yes|no|true|false)$/i;

/** The label is a named option (not a threshold, date, move or the question restated). */
function namedPick(label: string | null, question: string): string | null {
  if (label === null) return null;
  const l = label.trim();
  if (l === "" || notAPick.test(l) || /\d/.test(l)) return null;
  if (l.length > 60 || l.toLowerCase() === question.trim().toLowerCase()) return null;
  if (moveNone.test(l) || moveUp.test(l) || moveDown.test(l)) return null;
  return l;
}

const sourceNames = [
  "nber", "bureau of economic analysis", "bea", "bureau of labor statistics", "bls", "binance", "cf benchmarks", "coinbase",
  "box office mojo", "the numbers", "national weather service", "associated press", "lmarena", "opm", "aaa", "tsa", "spacex",
  "imf portwatch", "national hurricane center", "fed", "federal reserve", "time magazine", "holy see",
];

const sourcePatterns = sourceNames.map((name) => ({ name, re: new RegExp(`\\b${name}\\b`) }));

function findSources(description: string | null): string[] {
  if (description === null) return [];
  const lower = clean(description).toLowerCase();
  const found = sourcePatterns.filter((s) => s.re.test(lower)).map((s) => s.name);
  const canon = found.map((s) =>
    s === "bea" ? "bureau of economic analysis" : s === "bls" ? "bureau of labor statistics" : s === "federal reserve" ? "fed" : s,
  );
  return [...new Set(canon)].sort();
}

const negation = /\b(not|never|fail to|fails to|won't|will not|no longer)\b/i;

function remove(text: string, part: string): string {
  if (part === "") return text;
  const idx = text.toLowerCase().indexOf(part.toLowerCase());
  return idx === -1 ? text : `${text.slice(0, idx)} ${text.slice(idx + part.length)}`;
}

const monthWordRe = new RegExp(`\\b${monthPattern}\\b`, "gi");
const monthDayRe = new RegExp(`\\b${monthPattern}\\s+\\d{1,2}(?!\\d)(?:st|nd|rd|th)?(?:,?\\s+\\d{4})?`, "gi");
const monthYearRe = new RegExp(`\\b${monthPattern}\\s+\\d{4}`, "gi");

function stripNumbersAndDates(text: string): string {
  return text
    .replace(monthWordRe, " ")
    .replace(/\$?\d[\d,.]*(?:\s*(?:k|m|b|bn|million|billion|thousand|bps)(?![a-z])|\s*%|\s*°\s*[fc]?)?/gi, " ");
}

/**
 * Reads one market: its question (Polymarket question; Kalshi event title + Yes sub-title +
 * rule sentence), the named option Yes stands for, the threshold or range and its direction,
 * the deadline or instant, negation, resolution sources and the typed concepts of its context.
 */
export function extractFeatures(input: MatchInput): Features {
  const question = questionOf(input);
  const rule = ruleSentence(input.description);
  const label = input.yesLabel !== null && input.yesLabel.trim().toLowerCase() !== question.trim().toLowerCase() ? input.yesLabel : null;
  const pickText = namedPick(label, question);
  const sameAsEvent = question === input.eventTitle;

  // The context: what the question is about, without the option Yes stands for.
  const contextParts = [question, sameAsEvent ? "" : input.eventTitle, rule ?? ""];
  let context = contextParts.join(" . ");
  if (pickText !== null) {
    for (let i = 0; i < 3; i += 1) context = remove(context, pickText);
  }
  const contextTokens = canonicalTokens(stripNumbersAndDates(context));
  const { hits } = findConcepts(contextTokens);
  const concepts: Partial<Record<ConceptType, string[]>> = {};
  for (const hit of hits) {
    const list = concepts[hit.type] ?? [];
    if (!list.includes(hit.canon)) list.push(hit.canon);
    concepts[hit.type] = list;
  }
  // "New York" in a team or city context is the city; a state elsewhere. Competitions: keep the league.
  if (concepts.competition !== undefined) {
    const leagues = new Set(concepts.competition.map((c) => competitionLeague[c]).filter((l): l is string => l !== undefined));
    concepts.competition = [...new Set(concepts.competition.map((c) => (competitionStage[c] === "title" ? `${competitionLeague[c] ?? c} title` : c)))];
    if (leagues.size > 0) concepts.competition = concepts.competition.map((c) => (c.endsWith("conference") ? `${[...leagues][0]} ${c}` : c));
    // A conference named with its league ("NBA Western Conference") is the conference, not the league title.
    if (concepts.competition.some((c) => c.endsWith("conference"))) concepts.competition = concepts.competition.filter((c) => !c.endsWith("title"));
  }
  // "___" (Polymarket's blank in "Bitcoin above ___ on December 31?") is not a word.
  const topic = [...new Set(contextTokens.filter((t) => t.length > 1 && !stopwords.has(t) && !modeWords.has(t) && !/^\d/.test(t) && !/^_+$/.test(t)))];

  const pick = pickText === null ? null : canonicalTokens(pickText).filter((t) => !stopwords.has(t) || t.length === 1);

  // Numbers: the label is the most precise statement of the threshold, then the question, then the rule.
  // A bare number ("90,000" as a group label) says less than a question with a unit and a direction.
  const parsed = [label, question, rule]
    .filter((s): s is string => s !== null)
    .map((s) => parseInterval(stripDatesForNumbers(s)))
    .filter((i): i is Interval => i !== null);
  const informative = (i: Interval) => i.unit !== "count" || i.lo !== i.hi;
  const interval = parsed.find(informative) ?? parsed[0] ?? null;

  const refYear = input.resolutionDate?.getUTCFullYear() ?? new Date().getUTCFullYear();
  const resolution = input.resolutionDate?.getTime() ?? null;
  const defaultYear = (month: number, day: number) => {
    if (resolution === null) return refYear;
    return utc(refYear, month, day) > resolution + 45 * DAY ? refYear - 1 : refYear;
  };
  const timeText = [question, sameAsEvent ? "" : input.eventTitle, label ?? ""].join(" . ");
  let dates = findDates(timeText, defaultYear);
  let time = scopeFromDates(dates, clean(timeText).toLowerCase());
  if (time === null && rule !== null) {
    dates = findDates(rule, defaultYear);
    time = scopeFromDates(dates, clean(rule).toLowerCase());
  }
  if (time !== null && time.kind === "instant") {
    time.hour = findHour(timeText) ?? findHour(rule ?? "") ?? findHour(input.description ?? "");
  }
  const seasons = [...clean(`${question} ${input.eventTitle}`).matchAll(/\b(20\d{2})\s*[-/]\s*(\d{2})\b/g)].map((m) => `${m[1]}-${m[2]}`);

  const lowerAll = clean(`${question} ${label ?? ""} ${input.eventTitle}`).toLowerCase();
  const mode: Features["mode"] =
    /\b(reach|reaches|hit|hits|how high|how low|any time|at any point|all[- ]time high|dip to)\b|↑|↓/.test(lowerAll) ||
    /\bat any time\b|\bany .*candle\b.*\bhigh\b/.test(clean(input.description ?? "").toLowerCase())
      ? "touch"
      : "at";

  const desc = clean(input.description ?? "").toLowerCase();
  const negated = negation.test(question.replace(/\bno change\b/i, "")) && !/\bor not\b/i.test(question);
  const disjunctive = /\b(either of the following|any of the following|one of the following)\b/.test(desc);

  const keys = new Set<string>();
  for (const t of topic) if (!genericWords.has(t)) keys.add(t);
  for (const t of pick ?? []) if (t.length > 1) keys.add(`p:${t}`);
  if (time !== null) keys.add(time.kind === "instant" ? `t:${new Date(time.start ?? time.end).toISOString().slice(0, 10)}` : `t:${new Date(time.end).toISOString().slice(0, 7)}`);
  if (interval !== null) keys.add(`n:${interval.unit}`);

  return {
    id: input.id,
    venue: input.venue,
    eventId: input.eventId,
    category: input.category,
    question: rule !== null && sameAsEvent ? `${question} ${label ?? ""}`.trim() : question,
    topic,
    concepts,
    pick,
    interval,
    mode,
    time,
    seasons,
    negated,
    disjunctive,
    sources: findSources(input.description),
    keys: [...keys],
  };
}

/** Dates removed so a day or year is never read as a threshold. */
function stripDatesForNumbers(text: string): string {
  return clean(text)
    .replace(monthDayRe, " ")
    .replace(monthYearRe, " ")
    .replace(/\b\d{1,2}(?::\d{2})?\s*(?:a\.?m\.?|p\.?m\.?)\s*(?:e[sd]?t|et)?/gi, " ")
    .replace(/\b(19|20)\d{2}\s*[-/]\s*\d{2}\b/g, " ")
    .replace(/\b\d+(?:st|nd|rd|th)\b/gi, " ")
    .replace(/\bq[1-4]\b/gi, " ")
    .replace(/(?<![$\d.,])\b(19|20)\d{2}\b(?!\s*%)/g, " ");
}
