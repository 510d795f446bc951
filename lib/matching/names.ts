/**
 * The names a question states: people, organisations, places, teams, titles of laws and works,
 * acronyms. Read with compromise's lexicon (a maintained English NLP library that ships its
 * lexicon of people's names, places, organisations and sports teams in the package) plus the
 * written case.
 * No list of names is kept: a name the engine has never seen is still a name, and a name one side
 * states that the other does not is a difference (identity fails closed).
 */
import nlp from "compromise";
import vocabulary from "./data/vocabulary.json";

/** The calendar's month and weekday names, long and short (US and British: "Sep", "Sept"), from CLDR. */
function calendarWords(): string[] {
  const out = new Set<string>();
  const at = (m: number, d: number) => new Date(Date.UTC(2024, m, d));
  for (const locale of ["en-US", "en-GB"]) {
    for (const month of ["long", "short"] as const) {
      const format = new Intl.DateTimeFormat(locale, { month, timeZone: "UTC" });
      for (let m = 0; m < 12; m += 1) out.add(format.format(at(m, 15)).toLowerCase().replace(/\.$/, ""));
    }
  }
  const weekday = new Intl.DateTimeFormat("en-US", { weekday: "long", timeZone: "UTC" });
  for (let d = 1; d <= 7; d += 1) out.add(weekday.format(at(0, d)).toLowerCase());
  return [...out];
}

/** Words that are capitalised for other reasons: the calendar, and the question's own words (data/vocabulary.json, `notNames`). */
const notNames = new Set([...calendarWords(), ...(vocabulary as { notNames: { entries: string[] } }).notNames.entries]);

export interface NameSpan {
  /** Lower-cased words of the name, accents removed. */
  words: string[];
  /** Compromise read it as a person (first names may then be left out on the other side). */
  person: boolean;
  /** Written in capitals (an acronym such as "DHS"). */
  acronym: boolean;
}

export const foldWord = (w: string) =>
  w
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[’']s$/, "")
    .replace(/[^a-z0-9&]+/g, "");

/** compromise's lexicon: word -> its tags (people's names, places, organisations, sports teams, ...). */
const lexicon = (nlp as unknown as { model: () => { one: { lexicon: Record<string, string | string[] | undefined> } } }).model().one.lexicon;

const tagsOf = (word: string): string[] => {
  const t = lexicon[word];
  return t === undefined ? [] : Array.isArray(t) ? t : t.split(",");
};

let teamCities: Map<string, string[][]> | null = null;

/**
 * The city words that stand for a team's nickname word, from compromise's sports teams
 * (a nickname word -> the words of the one city whose team it names). A city counts only when exactly one team
 * of the lexicon starts with it (a city with several teams never stands for one of their nicknames) and only for
 * a nickname word no other team uses ("City" of "Springfield City" is not one).
 */
export function teamCityOf(word: string): string[][] {
  if (teamCities === null) {
    const teams = Object.entries(lexicon)
      .filter(([, t]) => t !== undefined && (Array.isArray(t) ? t : t.split(",")).includes("SportsTeam"))
      .map(([name]) => name.split(" "))
      .filter((words) => words.length >= 2);
    const byPrefix = new Map<string, number>();
    for (const words of teams) for (let k = 1; k < words.length; k += 1) byPrefix.set(words.slice(0, k).join(" "), (byPrefix.get(words.slice(0, k).join(" ")) ?? 0) + 1);
    // A nickname word several teams share ("City", "Giants") names none of them.
    const nickCount = new Map<string, number>();
    for (const words of teams) for (const w of new Set(words.slice(1))) nickCount.set(w, (nickCount.get(w) ?? 0) + 1);
    teamCities = new Map();
    for (const words of teams) {
      for (let k = 1; k < words.length; k += 1) {
        const prefix = words.slice(0, k);
        if (byPrefix.get(prefix.join(" ")) !== 1) continue;
        for (const nick of words.slice(k)) if (nickCount.get(nick) === 1) teamCities.set(nick, [...(teamCities.get(nick) ?? []), prefix]);
      }
    }
  }
  return teamCities.get(word) ?? [];
}

const personTags = ["Person", "FirstName", "LastName", "MaleName", "FemaleName"];
const placeOrOrgTags = ["Place", "City", "Country", "Region", "Organization", "SportsTeam", "Company"];

/**
 * Name spans of `text`: runs of consecutive name words. A word is a name when it is written in
 * capitals inside a sentence, is an acronym, or (first in its sentence) is one compromise's lexicon
 * knows as a person, place, organisation or team. A leading "Will" is the question's verb.
 * Reading the lexicon word by word, rather than running compromise's tagger over every sentence,
 * keeps a full pass over a catalog of 200,000 markets within minutes (the tagger took ~1.8 ms a
 * question; docs/matching.md).
 */
export function findNames(text: string): NameSpan[] {
  const spans: NameSpan[] = [];
  let current: { words: string[]; person: boolean; acronym: boolean; placeOrOrg: boolean } | null = null;
  const close = () => {
    if (current !== null && current.words.length > 0) {
      // Two or three capitalised words the lexicon cannot place are read as a person's name too
      // (a name it has never seen): "Given Surname".
      const unknownPerson = !current.placeOrOrg && !current.acronym && current.words.length >= 2 && current.words.length <= 3;
      spans.push({ words: current.words, person: current.person || unknownPerson, acronym: current.acronym });
    }
    current = null;
  };
  let sentenceStart = true;
  for (const token of text.split(/\s+/)) {
    if (token === "" || token === "-") {
      close();
      sentenceStart = token === "-" || sentenceStart;
      continue;
    }
    const raw = token.replace(/^[^\p{L}\d]+|[^\p{L}\d.]+$/gu, "").replace(/\.$/, "");
    const word = foldWord(raw);
    const tags = tagsOf(word);
    const capitalised = /^\p{Lu}/u.test(raw);
    const acronym = /^\p{Lu}{2,}s?$/u.test(raw.replace(/[.’']/g, ""));
    const known = tags.some((t) => personTags.includes(t) || placeOrOrgTags.includes(t) || t === "ProperNoun");
    const isName = word !== "" && !/^\d/.test(word) && !notNames.has(word) && (acronym || (capitalised && (!sentenceStart || known)));
    if (isName) {
      current ??= { words: [], person: false, acronym: false, placeOrOrg: false };
      current.words.push(word);
      if (tags.some((t) => personTags.includes(t))) current.person = true;
      if (tags.some((t) => placeOrOrgTags.includes(t))) current.placeOrOrg = true;
      if (acronym) current.acronym = true;
    } else close();
    // Punctuation after a word ends the name ("Quill, Marsh") and a sentence ends at . ? !
    if (/[,;:()?!]$/.test(token) || /[^A-Z]\.$/.test(token)) close();
    // "U.S." and "H.R." end in a full stop without ending the sentence.
    sentenceStart = /[?!:]$/.test(token) || (/\.$/.test(token) && !/^(\p{L}\.)+$/u.test(token.replace(/^[^\p{L}]+/u, "")));
  }
  close();
  return spans;
}
