/**
 * Names comparator: the names (people, organisations, places, teams, titles) each side states
 * that the other's text does not.
 */
import type { Features } from "../extract";
import { finalStageWords, genericWords, stageWords } from "../lexicon";
import { canonicalTokens } from "../text";
import { teamCityOf } from "../names";
import { aliasedWords } from "../aliases";
import { entitiesLookup, namesLookup, sameStem } from "./lookup";
import type { TravelsWith } from "../cooccurrence";

/**
 * The names A states that B does not: every word of every name span must be found among B's
 * words (its question, label, event title and rule), as the same word, an inflection, or the
 * letters of an acronym B's text spells out, or an alias of an entity B names (aliases.ts); a
 * person's given names may be left out when the surname is there. An unknown name is a
 * difference, never noise.
 */
export function unmatchedNames(a: Features, b: Features, excused: ReadonlySet<string> = new Set()): string[] {
  const { other, stems } = namesLookup(b);
  // Words that carry no topic ("Winner", "Title", "Election" in a title-case heading) are not names.
  const has = (w: string) =>
    genericWords.has(w) ||
    excused.has(w) ||
    other.has(w) ||
    (w.length >= 5 && stems.some((x) => sameStem(x, w))) ||
    b.initialisms.includes(w) ||
    // A team's nickname where the other side names its city ("Owls" for "Springfield").
    teamCityOf(w).some((city) => city.every((c) => other.has(c)));
  // Given names B states for a surname: a different one there is another person ("Chris" vs "Phil").
  const givenOnB = new Map<string, string[]>();
  for (const span of b.names) if (span.person && span.words.length > 1) givenOnB.set(span.words.at(-1) ?? "", span.words.slice(0, -1));
  const missing: string[] = [];
  for (const span of a.names) {
    // An acronym of the whole name on the other side ("DWS" for "Department of Widget Safety").
    const initials = span.words.map((w) => w[0] ?? "").join("");
    if (span.words.length > 1 && b.names.some((n) => n.acronym && n.words.some((w) => w.includes(initials)))) continue;
    const surname = span.words.at(-1) ?? "";
    // An alias of an entity B names ("Zorbian" / "Zorbia", a team's nickname / its city).
    const aliased = aliasedWords(span.words, entitiesLookup(b));
    span.words.forEach((w, i) => {
      if (has(w) || aliased.has(w)) return;
      const given = givenOnB.get(surname);
      if (span.person && i < span.words.length - 1 && has(surname) && (given === undefined || given.includes(w))) return;
      missing.push(w);
    });
  }
  return [...new Set(missing)];
}

/**
 * The final one side names where both sides ask who wins: to win a competition's deciding stage
 * ("the Northern League Finals") is to win the competition ("the Northern League"), so the
 * stage word is not a narrower contest there. Only as the last word of a longer name (the
 * competition's own name before it; "Finals MVP" is another award) and only when both questions
 * say "win": reaching a final, or a prize of it, is not winning it.
 */
export function wonFinal(a: Features, b: Features): string[] {
  const wins = (f: Features) => canonicalTokens(f.question).includes("win");
  if (!wins(a) || !wins(b)) return [];
  const out = new Set<string>();
  for (const f of [a, b]) {
    for (const span of f.names) {
      const last = span.words.at(-1);
      if (span.words.length > 1 && last !== undefined && finalStageWords.has(last)) out.add(last);
    }
  }
  return [...out];
}

/** What the catalog says of names that travel together (cooccurrence.ts; the candidate index answers it). */
export type Travels = TravelsWith;

/** The share of one venue's markets carrying a word that must carry a name for that word to imply it. */
export const TRAVEL_SHARE = 0.9;

/**
 * Of the names `missing` that one side states and the other's text lacks, those the other market
 * implies: names that, on the stating side's venue, travel with a word the other market states
 * (its topic keys: question, label, event title; its option). An awards ceremony's name travels
 * with the award's name; a league's organiser with its competition. A name that narrows fails
 * closed: a stage or a narrower part of an event (`stageWords`: a primary, a round, a final) is
 * never implied, nor is a name that is the alternative of one the other side states alone
 * (`otherMissing`: two names the catalog never puts on one market, such as two competitions run
 * by one organiser). It is learned on the venue of the side that states the name (`venue`: that
 * venue's convention), and only from a word the two venues use alike: not from a word the other
 * market's venue ties to a name of its own that the first venue never writes (a "tournament" one
 * venue always writes with a narrower contest's name and the other with the whole competition's).
 * Learned from the index each pass, never from a list of names.
 */
export function namesImplied(missing: readonly string[], venue: string, other: Features, travels: Travels | undefined, otherMissing: readonly string[] = []): string[] {
  if (travels === undefined || missing.length === 0) return [];
  const own = other.keys.filter((k) => !k.includes(":") && !genericWords.has(k) && !stageWords.has(k));
  // A word of the other market's that its own venue ties to a name of its own which the name's venue
  // never writes is used by the two venues for different things (one venue's tournament is another's
  // narrower one): nothing is read from it.
  const sharedUse = (g: string) => !own.some((u) => u !== g && travels.carried(venue, u) === 0 && travels.travelsOn(other.venue, g, u) >= TRAVEL_SHARE);
  return missing.filter(
    (w) =>
      !stageWords.has(w) &&
      !genericWords.has(w) &&
      !otherMissing.some((u) => travels.apart(w, u)) &&
      own.some((g) => g !== w && travels.travelsOn(venue, g, w) >= TRAVEL_SHARE && sharedUse(g)),
  );
}
