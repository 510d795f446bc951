/**
 * The names a question states: people, organisations, places, teams, titles of laws and works,
 * acronyms. Read with compromise (a maintained English NLP library that ships its lexicon and
 * tagger in the package) plus the written case: a word is a name when compromise tags it a proper
 * noun, person, place, organisation or acronym, or when it is capitalised inside the sentence.
 * No list of names is kept: a name the engine has never seen is still a name, and a name one side
 * states that the other does not is a difference (identity fails closed).
 */
import nlp from "compromise";

const nameTags = ["ProperNoun", "Person", "Place", "Organization", "Acronym"];

/** Words that are capitalised for other reasons: the calendar, and the question's own verb. */
const notNames = new Set([
  "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
  "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
  "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
  "will", "who", "what", "which", "when", "how", "yes", "no", "the", "a", "an", "of", "and", "or", "in", "on", "at", "by", "for", "to", "be",
]);

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

interface Term {
  text: string;
  tags: string[];
  pre: string;
  post: string;
}

/**
 * Name spans of `text`: runs of consecutive name words. A leading "Will" is the question's verb,
 * never a first name; a sentence's first word counts only when compromise tags it a name.
 */
export function findNames(text: string): NameSpan[] {
  const doc = nlp(text.replace(/^(\s*)Will\b/, "$1will").replace(/([.?!]\s+)Will\b/g, "$1will"));
  const sentences = doc.json({ terms: { normal: false } }) as Array<{ terms: Term[] }>;
  const spans: NameSpan[] = [];
  for (const sentence of sentences) {
    let current: { words: string[]; person: boolean; acronym: boolean; placeOrOrg: boolean } | null = null;
    const close = () => {
      if (current !== null && current.words.length > 0) {
        // Two or three capitalised words compromise cannot place are read as a person's name too
        // (a name it has never seen): "Given Surname".
        const unknownPerson = !current.placeOrOrg && !current.acronym && current.words.length >= 2 && current.words.length <= 3;
        spans.push({ words: current.words, person: current.person || unknownPerson, acronym: current.acronym });
      }
      current = null;
    };
    sentence.terms.forEach((term, i) => {
      const raw = term.text;
      const word = foldWord(raw);
      const tagged = nameTags.some((t) => term.tags.includes(t));
      const capitalised = /^\p{Lu}/u.test(raw) && i > 0;
      const acronym = /^\p{Lu}{2,}s?$/u.test(raw.replace(/[.’']/g, ""));
      const isName = word !== "" && !/^\d/.test(word) && !notNames.has(word) && (tagged || capitalised || acronym);
      if (!isName) {
        close();
        return;
      }
      current ??= { words: [], person: false, acronym: false, placeOrOrg: false };
      current.words.push(word);
      if (term.tags.includes("Person")) current.person = true;
      if (term.tags.includes("Place") || term.tags.includes("Organization")) current.placeOrOrg = true;
      if (acronym) current.acronym = true;
      // Punctuation after a word ends the name ("Putin, Zelensky").
      if (/[,;:()?!]/.test(term.post)) close();
    });
    close();
  }
  return spans;
}
