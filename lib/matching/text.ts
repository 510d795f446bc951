/**
 * Words of a market's text: normalised, with the venues' different spellings of one thing rewritten
 * to one form (data/vocabulary.json), and typed concepts (places from the packaged gazetteers,
 * parties, offices, competitions, assets, indicators) found by longest match.
 */
import { gazetteer, rewritePhrases, rewriteWord, type ConceptType } from "./lexicon";

export const clean = (s: string) =>
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

export interface ConceptHit {
  type: ConceptType;
  canon: string;
  /** The tokens the gazetteer matched. */
  words: string[];
}

/** Longest-match gazetteer lookup over canonical tokens. */
export function findConcepts(tokens: string[]): { hits: ConceptHit[]; rest: string[] } {
  const hits: ConceptHit[] = [];
  const rest: string[] = [];
  const { map, longest, longestFrom } = gazetteer();
  for (let i = 0; i < tokens.length; ) {
    let matched = 0;
    // Only spans as long as a phrase starting with this word (profiled: the span joins were most of the lookup).
    for (let n = Math.min(longest, longestFrom.get(tokens[i] ?? "") ?? 0, tokens.length - i); n >= 1; n -= 1) {
      const phrase = tokens.slice(i, i + n).join(" ");
      const entry = map.get(phrase);
      if (entry?.type) {
        hits.push({ type: entry.type, canon: entry.canon, words: tokens.slice(i, i + n) });
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
