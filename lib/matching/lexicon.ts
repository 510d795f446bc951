/**
 * General knowledge the extractor needs to read market questions: canonical forms of words and
 * phrases that venues spell differently, and typed gazetteers (places, parties, offices,
 * competitions, assets, indicators). The domain vocabulary is data (data/vocabulary.json, each
 * section with its source); places come from packaged gazetteers (places.ts).
 */
import vocabulary from "./data/vocabulary.json";
import { longestPlace, places } from "./places";

export type ConceptType =
  | "state"
  | "country"
  | "city"
  | "party"
  | "office"
  | "competition"
  | "asset"
  | "indicator"
  | "org";

/** Concept types that locate or scope a question: a different value means a different question. */
export const contextTypes: readonly ConceptType[] = ["state", "country", "city", "office", "competition", "asset", "indicator", "org"];

/** Words that carry no topic (function words and rule boilerplate: data/vocabulary.json, `stopwords`). */
export const stopwords: ReadonlySet<string> = new Set((vocabulary as { stopwords: { entries: string[] } }).stopwords.entries);

/** Words that carry no topic on their own (kept out of topic similarity, kept in the text: `genericWords`). */
export const genericWords: ReadonlySet<string> = new Set((vocabulary as { genericWords: { entries: string[] } }).genericWords.entries);

/** Words that say how a level is reached (kept in a question's mode, out of its topic: `modeWords`). */
export const modeWords: ReadonlySet<string> = new Set((vocabulary as { modeWords: { entries: string[] } }).modeWords.entries);

/** Words that name a stage of a contest or a narrower part of an event (`stageWords`): a name that narrows. */
export const stageWords: ReadonlySet<string> = new Set((vocabulary as { stageWords: { entries: string[] } }).stageWords.entries);

/** Stage words naming a contest's deciding stage (`finalStageWords`): its winner is the contest's winner. */
export const finalStageWords: ReadonlySet<string> = new Set((vocabulary as { finalStageWords: { entries: string[] } }).finalStageWords.entries);

/** Measures read at one weather station (`stationMeasures`): the station is part of what settles them. */
export const stationMeasures: ReadonlySet<string> = new Set((vocabulary as { stationMeasures: { entries: string[] } }).stationMeasures.entries);

/** One entry of the typed gazetteer: a canonical phrase and its concept type. */
export interface PhraseEntry {
  canon: string;
  type: ConceptType | null;
}

interface Vocabulary {
  phrases: { entries: Record<string, string> };
  words: { entries: Record<string, string> };
  parties: { entries: string[] };
  offices: { entries: string[] };
  competitions: { entries: Record<string, { stage: "title" | "conference"; league?: string }> };
  assets: { entries: string[] };
  indicators: { entries: string[] };
  orgs: { entries: string[] };
  sources: { entries: Record<string, string> };
  priceFeeds: { entries: string[] };
}

const data = vocabulary as Vocabulary;

/** Multi-word phrases rewritten before tokenizing (lower case, longest first). */
const phraseRewrites = Object.entries(data.phrases.entries).sort((a, b) => b[0].length - a[0].length);

/** Single words rewritten to a canonical form (a Map: a word such as "constructor" is no key of it). */
const wordRewrites = new Map<string, string>(Object.entries(data.words.entries));

/**
 * Competitions and the stage of each: winning a title implies winning the conference that leads
 * to it (a team's `finals` win ⊂ its `conference` win), so they nest rather than differ.
 */
export const competitionStage: Record<string, "title" | "conference"> = Object.fromEntries(
  Object.entries(data.competitions.entries).map(([k, v]) => [k, v.stage]),
);

/** The league a competition belongs to (conference stages inherit it from the text). */
export const competitionLeague: Record<string, string> = Object.fromEntries(
  Object.entries(data.competitions.entries).flatMap(([k, v]) => (v.league === undefined ? [] : [[k, v.league]])),
);

/** Resolution source names (lower case) -> canonical source. */
export const sourceAliases: Record<string, string> = data.sources.entries;

function buildGazetteer(): Map<string, PhraseEntry> {
  const out = new Map<string, PhraseEntry>();
  // Looked up among rewritten words, so keyed by its words' rewrites ("champions" is read "champion").
  const add = (list: Iterable<string>, type: ConceptType) => {
    for (const phrase of list) out.set(phrase.split(" ").map(rewriteWord).join(" "), { canon: phrase, type });
  };
  add(data.parties.entries, "party");
  add(data.offices.entries, "office");
  add(data.assets.entries, "asset");
  add(data.indicators.entries, "indicator");
  add(data.orgs.entries, "org");
  add(Object.keys(competitionStage), "competition");
  for (const [name, place] of places()) {
    if (!out.has(name)) out.set(name, { canon: `${place.type}:${place.canon}`, type: place.type === "city" ? "city" : place.type });
  }
  return out;
}

let built: { map: Map<string, PhraseEntry>; longest: number; longestFrom: Map<string, number> } | null = null;

/**
 * Canonical phrase (space-joined tokens) -> its concept type: the domain vocabulary and the places.
 * Built on first use (the city gazetteer takes about a second), so a route that only reads stored
 * matches never loads it.
 */
export function gazetteer(): { map: Map<string, PhraseEntry>; longest: number; longestFrom: Map<string, number> } {
  if (built === null) {
    const map = buildGazetteer();
    // The longest phrase starting with each word: a lookup at a word tries no longer span.
    const longestFrom = new Map<string, number>();
    for (const key of map.keys()) {
      const words = key.split(" ");
      const first = words[0] ?? "";
      if ((longestFrom.get(first) ?? 0) < words.length) longestFrom.set(first, words.length);
    }
    built = { map, longest: Math.max(longestPlace, ...[...map.keys()].map((k) => k.split(" ").length)), longestFrom };
  }
  return built;
}

const compiledRewrites = phraseRewrites.map(([from, to]) => ({
  from,
  to,
  re: new RegExp(`(?<![a-z0-9])${from.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![a-z0-9])`, "g"),
}));

export function rewritePhrases(lower: string): string {
  let out = ` ${lower} `;
  for (const { from, to, re } of compiledRewrites) {
    if (out.includes(from)) out = out.replace(re, to);
  }
  return out.trim();
}

export function rewriteWord(word: string): string {
  return wordRewrites.get(word) ?? word;
}

/** Resolution sources that are price feeds (exchanges, index providers, oracles), canonical. */
export const priceFeeds: ReadonlySet<string> = new Set(data.priceFeeds.entries);
