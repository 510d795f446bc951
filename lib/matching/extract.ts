import { DAY, findDates, findHour, scopeFromDates, utc, withoutDates, type TimeScope } from "./dates";
import { entitiesIn } from "./aliases";
import { competitionLeague, competitionStage, genericWords, modeWords, rewriteWord, sourceAliases, stopwords, type ConceptType } from "./lexicon";
import { findNames, foldWord, type NameSpan } from "./names";
import { moveDown, moveNone, moveUp, parseInterval, quantityWords, type Interval } from "./numbers";
import { readRuleTerms, yesParagraph, type EventRange, type RuleTermsOf, type SettlementFields } from "./rules";
import { canonicalTokens, clean, findConcepts } from "./text";

export type { Interval, Unit } from "./numbers";
export type { TimeScope } from "./dates";
export { parseInterval } from "./numbers";
export { canonicalTokens } from "./text";

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
  /** The venue's own tags of the market's event (its place in the venue's hierarchy). */
  tags?: string[];
  /** The settlement terms its venue states as fields (strikes, secondary rules, named sources), read before the text. */
  settlement?: SettlementFields;
  /** The ranges its event's markets state in their rules (its own among them): what settles or opens a bracket's unsaid edges. */
  eventRanges?: readonly EventRange[];
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
  /** For an undated question, the time the rules' Yes paragraph states (a date the question leaves out may be stated there). */
  ruleTime: TimeScope | null;
  /** Season keys like "2026-27". */
  seasons: string[];
  negated: boolean;
  /** Resolves Yes on any of several criteria ("either of the following"). */
  disjunctive: boolean;
  /** Resolution sources named in the rules (lower case). */
  sources: string[];
  /** Names the outcome's question states (people, organisations, places, acronyms), canonical words. */
  names: NameSpan[];
  /** Every canonical word of the question, the Yes label, the event title and the rule sentence. */
  words: string[];
  /** Content words of the outcome's own question and option (no stopwords, numbers or dates). */
  outcome: string[];
  /** Capitalised words of the rules (a name the question leaves out may be stated there). */
  ruleNames: string[];
  /** Content words of the rules (a word the question leaves out may be stated there). */
  ruleWords: string[];
  /** Ordinal positions the question states ("first round", "2nd", "third place"). */
  ordinals: number[];
  /** Initials of the capitalised phrases of the text and rules ("Department of Widget Safety" -> "dws"). */
  initialisms: string[];
  /** Tokens for the candidate index: topic, pick, time and threshold keys. */
  keys: string[];
  /** The market's own resolution date (ms): what fills a date its question leaves unsaid. */
  resolution?: number | null;
  /** Words of the venue's own tags for its event: where a name its question leaves out may be said. */
  hierarchy?: string[];
  /** The resolution terms its rules state (what counts, time zone, bound, source, station, window start). */
  rules?: RuleTermsOf;
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

/** A whole question rather than a short option name. */
function looksLikeQuestion(label: string): boolean {
  const l = label.trim();
  return /\?\s*$/.test(l) || (/^(will|who|what|when|which|how|is|are|does|did|can)\b/i.test(l) && l.split(/\s+/).length >= 4);
}

const joiners = new Set(["of", "and", "the", "for", "&", "on"]);

/** Initials of every run of capitalised words (joined by "of", "and", ...), and of their sub-runs. */
function initialisms(text: string): string[] {
  const out = new Set<string>();
  const flush = (run: string[]) => {
    const letters = run.join("");
    for (let i = 0; i < letters.length; i += 1) for (let j = i + 2; j <= letters.length; j += 1) out.add(letters.slice(i, j));
  };
  let run: string[] = [];
  for (const word of clean(text).split(/[\s/]+/)) {
    const bare = word.replace(/^[^\p{L}\d]+|[^\p{L}\d]+$/gu, "");
    if (/^\p{Lu}/u.test(bare)) {
      run.push((bare[0] ?? "").toLowerCase());
      if (/[,.;:?!)]$/.test(word)) {
        flush(run);
        run = [];
      }
    } else if (!(joiners.has(bare.toLowerCase()) && run.length > 0)) {
      if (run.length > 1) flush(run);
      run = [];
    }
  }
  if (run.length > 1) flush(run);
  return [...out];
}

/** Capitalised words of the rules text, folded. */
function ruleNames(description: string | null): string[] {
  if (description === null) return [];
  const out = new Set<string>();
  for (const word of clean(description.slice(0, 4000)).split(/[\s/(),;:"]+/)) if (/^\p{Lu}/u.test(word)) out.add(foldWord(word));
  out.delete("");
  return [...out].map(rewriteWord);
}

const ordinalWords: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10 };

/** Ordinal positions ("first round", "2nd place", "#1"); quarters are dates, not ordinals. */
function ordinals(text: string): number[] {
  const out = new Set<number>();
  for (const m of clean(text).toLowerCase().matchAll(/\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|(\d{1,2})(?:st|nd|rd|th))\b(?!\s+quarter)|#(\d{1,3})\b/g)) {
    out.add(m[3] !== undefined ? Number(m[3]) : m[2] !== undefined ? Number(m[2]) : (ordinalWords[m[1] ?? ""] ?? 0));
  }
  return [...out].sort((a, b) => a - b);
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

const sourcePatterns = Object.entries(sourceAliases).map(([name, canon]) => ({ canon, re: new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`) }));

/** Resolution sources the rules name, canonical (data/vocabulary.json). */
export function findSources(description: string | null): string[] {
  if (description === null) return [];
  const lower = clean(description).toLowerCase();
  return [...new Set(sourcePatterns.filter((s) => s.re.test(lower)).map((s) => s.canon))].sort();
}

const negation = /\b(not|never|fail to|fails to|won't|will not|no longer)\b/i;

function remove(text: string, part: string): string {
  if (part === "") return text;
  const idx = text.toLowerCase().indexOf(part.toLowerCase());
  return idx === -1 ? text : `${text.slice(0, idx)} ${text.slice(idx + part.length)}`;
}

/** Numbers and dates removed; a number joined to letters ("76ers", "Q4", "3rd") is a word and stays whole. */
function stripNumbersAndDates(text: string, reference: Date): string {
  return withoutDates(text, reference).replace(/(?<![a-z\d])\$?\d[\d,.]*(?:\s*(?:k|m|b|bn|million|billion|thousand|bps)(?![a-z])|\s*%|\s*°\s*[fc]?)?(?![a-z\d])/gi, " ");
}

/**
 * Reads one market: its question (Polymarket question; Kalshi event title + Yes sub-title +
 * rule sentence), the named option Yes stands for, the threshold or range and its direction,
 * the deadline or instant, negation, resolution sources and the typed concepts of its context.
 */
export function extractFeatures(input: MatchInput): Features {
  // A Yes label that is a whole question (many Kalshi markets) is the outcome's own question: the
  // title is then only the event's, shared by every outcome.
  const labelIsQuestion = input.yesLabel !== null && looksLikeQuestion(input.yesLabel) && input.yesLabel.trim() !== input.title.trim();
  const question = labelIsQuestion && input.yesLabel !== null ? input.yesLabel : questionOf(input);
  const rule = ruleSentence(input.description);
  const reference = input.resolutionDate ?? new Date();
  const label = !labelIsQuestion && input.yesLabel !== null && input.yesLabel.trim().toLowerCase() !== question.trim().toLowerCase() ? input.yesLabel : null;
  const pickText = namedPick(label, question);
  const sameAsEvent = question === input.eventTitle;

  // The context: what the question is about, without the option Yes stands for.
  const contextParts = [question, sameAsEvent ? "" : input.eventTitle, rule ?? ""];
  let context = contextParts.join(" . ");
  if (pickText !== null) {
    for (let i = 0; i < 3; i += 1) context = remove(context, pickText);
  }
  const contextTokens = canonicalTokens(stripNumbersAndDates(context, reference));
  const { hits } = findConcepts(contextTokens);
  const concepts: Partial<Record<ConceptType, string[]>> = {};
  for (const hit of hits) {
    const list = concepts[hit.type] ?? [];
    if (!list.includes(hit.canon)) list.push(hit.canon);
    concepts[hit.type] = list;
  }
  // A name that is both a city and a state is the city in a team or city context; a state elsewhere. Competitions: keep the league.
  if (concepts.competition !== undefined) {
    const leagues = new Set(concepts.competition.map((c) => competitionLeague[c]).filter((l): l is string => l !== undefined));
    concepts.competition = [...new Set(concepts.competition.map((c) => (competitionStage[c] === "title" ? `${competitionLeague[c] ?? c} title` : c)))];
    if (leagues.size > 0) concepts.competition = concepts.competition.map((c) => (c.endsWith("conference") ? `${[...leagues][0]} ${c}` : c));
    // A conference named with its league (a league's named conference) is the conference, not the league title.
    if (concepts.competition.some((c) => c.endsWith("conference"))) concepts.competition = concepts.competition.filter((c) => !c.endsWith("title"));
  }
  // "___" (Polymarket's blank in "Bitcoin above ___ on December 31?") is not a word.
  const topic = [...new Set(contextTokens.filter((t) => t.length > 1 && !stopwords.has(t) && !modeWords.has(t) && !/^\d/.test(t) && !/^_+$/.test(t)))];

  const pick = pickText === null ? null : canonicalTokens(pickText).filter((t) => !stopwords.has(t) || t.length === 1);

  // Numbers: the label is the most precise statement of the threshold, then the question, then the rule.
  // A bare number ("90,000" as a group label) says less than a question with a unit and a direction.
  const parsed = [label, question, rule]
    .filter((s): s is string => s !== null)
    .map((s) => parseInterval(stripDatesForNumbers(s, reference)))
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
  let dates = findDates(timeText, reference, defaultYear);
  let time = scopeFromDates(dates, clean(timeText).toLowerCase());
  if (time === null && rule !== null) {
    dates = findDates(rule, reference, defaultYear);
    time = scopeFromDates(dates, clean(rule).toLowerCase());
  }
  if (time !== null && time.kind === "instant") {
    time.hour = findHour(timeText, reference) ?? findHour(rule ?? "", reference) ?? findHour((input.description ?? "").slice(0, 2000), reference);
  }
  // Read only for an undated question (chrono over the rules is the costly part of extraction).
  const yes = time === null ? yesParagraph(input.description) : null;
  const ruleTime = yes === null ? null : scopeFromDates(findDates(yes, reference, defaultYear), yes.toLowerCase());
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

  // Entities the question names by any alias (a team by nickname or city, a country by name or
  // demonym): one token each, in the topic and the candidate index, so "the Owls" and "Springfield"
  // are compared and share their topic.
  // Read from the context, as the topic is (the option Yes stands for is compared as the option).
  const entityTokens = [...entitiesIn(contextTokens)].map((id) => `e:${id}`);
  topic.push(...entityTokens);
  const keys = new Set<string>();
  for (const t of topic) if (!genericWords.has(t)) keys.add(t);
  for (const t of pick ?? []) if (t.length > 1) keys.add(`p:${t}`);
  if (time !== null) keys.add(time.kind === "instant" ? `t:${new Date(time.start ?? time.end).toISOString().slice(0, 10)}` : `t:${new Date(time.end).toISOString().slice(0, 7)}`);
  if (interval !== null) keys.add(`n:${interval.unit}`);

  const ownTokens = new Set(canonicalTokens(`${question} ${pickText ?? ""}`));
  const names = findNames(withoutDates(`${question}${pickText !== null && !question.includes(pickText) ? ` . ${pickText}` : ""}`, reference))
    .map((span) => ({ ...span, words: span.words.map(rewriteWord).filter((w) => ownTokens.has(w)) }))
    .filter((span) => span.words.length > 0);
  const words = [...new Set(canonicalTokens([question, label ?? "", input.eventTitle, rule ?? ""].join(" . ")))];
  const outcome = [...new Set(canonicalTokens(stripNumbersAndDates(`${question} ${pickText ?? ""}`, reference)))].filter(
    (t) => t.length > 1 && !stopwords.has(t) && !modeWords.has(t) && !(interval !== null && quantityWords.has(t)) && !/^\d/.test(t) && !/^_+$/.test(t),
  );

  // The sources the venue names as fields, when any is one the vocabulary knows, before those the rules' text names.
  const named = (input.settlement?.sources ?? []).map((s) => `${s.name ?? ""} ${s.url ?? ""}`).join(" . ");
  const fieldSources = named === "" ? [] : findSources(named);
  const sources = fieldSources.length > 0 ? fieldSources : findSources(input.description);
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
    ruleTime,
    seasons,
    negated,
    disjunctive,
    sources,
    names,
    words,
    outcome,
    ruleNames: ruleNames(input.description),
    ruleWords: [...new Set(canonicalTokens((input.description ?? "").slice(0, 4000)))].filter((w) => w.length > 2 && !stopwords.has(w) && !/^\d/.test(w)),
    ordinals: ordinals(`${question} ${label ?? ""}`),
    initialisms: initialisms([question, input.eventTitle, rule ?? "", (input.description ?? "").slice(0, 3000)].join(" . ")),
    keys: [...keys],
    resolution,
    hierarchy: [...new Set(canonicalTokens((input.tags ?? []).join(" . ")))],
    rules: readRuleTerms(input.description, sources, question, input.settlement, input.eventRanges),
  };
}

/** Dates removed so a day or year is never read as a threshold. */
function stripDatesForNumbers(text: string, reference: Date): string {
  return withoutDates(text, reference)
    .replace(/\b(19|20)\d{2}\s*[-/]\s*\d{2}\b/g, " ")
    .replace(/\b\d+(?:st|nd|rd|th)\b/gi, " ")
    .replace(/\bq[1-4]\b/gi, " ")
    .replace(/(?<![$\d.,])\b(19|20)\d{2}\b(?!\s*%)/g, " ");
}

/**
 * Strings equal to one already seen by `pool` replaced by that one (a pass's markets repeat the same
 * words: one copy of each is held rather than one per market). Changes no value.
 */
export class StringPool {
  private readonly seen = new Map<string, string>();

  get(s: string): string {
    const known = this.seen.get(s);
    if (known !== undefined) return known;
    this.seen.set(s, s);
    return s;
  }

  /** `list`'s strings pooled, in place. */
  list<T extends string[] | null | undefined>(list: T): T {
    if (list != null) for (let i = 0; i < list.length; i += 1) list[i] = this.get(list[i] as string);
    return list;
  }

  /** The words of a market's features pooled, in place (the features themselves are returned). */
  features(f: Features): Features {
    f.venue = this.get(f.venue);
    f.eventId = this.get(f.eventId);
    f.category = this.get(f.category);
    for (const list of [f.topic, f.pick, f.seasons, f.sources, f.words, f.outcome, f.ruleNames, f.ruleWords, f.initialisms, f.keys, f.hierarchy]) this.list(list);
    for (const list of Object.values(f.concepts)) this.list(list);
    for (const span of f.names) this.list(span.words);
    return f;
  }
}
