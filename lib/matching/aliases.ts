/**
 * Entity aliases: the names that stand for one entity, read from packaged data at first use,
 * never a hand list (data/aliases.json names each source, the module or tag read, and its licence):
 *
 * - **countries**: every English name, alternative spelling and demonym of a country
 *   (world-countries, mledoze/countries, ODbL-1.0), so "Zorbia" and "Zorbian" are one country;
 * - **sports teams**: compromise's lexicon of sports teams (MIT), each full name split into its
 *   city (the longest leading run of words the place gazetteer knows, else all but the last
 *   word) and its nickname, so a nickname on one side and its city on the other ("the Owls" /
 *   "Springfield") are one team. A nickname several teams share names none of them; a city with
 *   several teams names each for the candidate index and none for the comparison.
 *
 * The engine uses them twice: a name one side states is not unsaid when the other states an alias
 * of the same entity (classify's name comparison), and the candidate index carries one key per
 * entity a question names (extract's keys), so two markets naming one team by nickname and by
 * city are compared at all.
 */
import { createRequire } from "node:module";
import path from "node:path";
import nlp from "compromise";
import manifest from "./data/aliases.json";
import { placeKey, places } from "./places";

/** Longest alias read, in words (longer official names of countries are not looked for). */
export const longestAlias = 4;

let table: Map<string, string[]> | null = null;

interface WorldCountry {
  cca2: string;
  name: { common: string; official: string };
  altSpellings: string[];
  demonyms?: Record<string, { f: string; m: string } | undefined>;
}

function loadCountries(): WorldCountry[] {
  const require = createRequire(path.join(process.cwd(), "package.json"));
  return require(manifest.sections.countries.module) as WorldCountry[];
}

const lexicon = (nlp as unknown as { model: () => { one: { lexicon: Record<string, string | string[] | undefined> } } }).model().one.lexicon;

function build(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (name: string, id: string) => {
    const key = placeKey(name);
    // Two-letter forms are English words too often ("in", "is"); codes are left to places.ts.
    if (key.length < 3) return;
    const ids = out.get(key);
    if (ids === undefined) out.set(key, [id]);
    else if (!ids.includes(id)) ids.push(id);
  };
  for (const c of loadCountries()) {
    const id = `country:${c.cca2.toLowerCase()}`;
    add(c.name.common, id);
    add(c.name.official, id);
    // Alternative spellings of more than two letters (the two-letter ones are codes).
    for (const alt of c.altSpellings) if (alt.length > 3) add(alt, id);
    const eng = c.demonyms?.eng;
    if (eng !== undefined) {
      add(eng.m, id);
      add(eng.f, id);
    }
  }
  // Sports teams: "<city> <nickname>".
  const gazetteer = places();
  const teams = Object.entries(lexicon)
    .filter(([, t]) => t !== undefined && (Array.isArray(t) ? t : t.split(",")).includes(manifest.sections.sportsTeams.tag))
    .map(([name]) => name.split(" "))
    .filter((words) => words.length >= 2);
  const nickCount = new Map<string, number>();
  const split = teams.map((words) => {
    // The city: the longest leading run the gazetteer knows, else every word but the last.
    let k = words.length - 1;
    for (let n = Math.min(words.length - 1, 3); n >= 1; n -= 1) {
      if (gazetteer.has(words.slice(0, n).join(" "))) {
        k = n;
        break;
      }
    }
    const nickname = words.slice(k).join(" ");
    nickCount.set(nickname, (nickCount.get(nickname) ?? 0) + 1);
    return { id: `team:${words.join(" ")}`, city: words.slice(0, k).join(" "), nickname, full: words.join(" ") };
  });
  for (const t of split) {
    add(t.full, t.id);
    if (t.city !== "") add(t.city, t.id);
    // A nickname two teams share ("Giants") is neither's alias.
    if (t.city !== "" && nickCount.get(t.nickname) === 1) add(t.nickname, t.id);
  }
  return out;
}

function aliases(): Map<string, string[]> {
  table ??= build();
  return table;
}

/** The entities a phrase (placeKey form) names: "country:xx" or "team:<full name>"; none when unknown. */
export function entitiesOf(phrase: string): readonly string[] {
  return aliases().get(phrase) ?? [];
}

/**
 * Every entity a run of words names: each run of one to `longestAlias` words looked up. With
 * `unambiguous`, only runs that name exactly one entity count: a city with several teams names
 * none of them for the comparison ("Springfield" does not say which Springfield team), while the
 * candidate index takes them all (it only nominates).
 */
export function entitiesIn(words: readonly string[], options: { unambiguous?: boolean } = {}): Set<string> {
  const out = new Set<string>();
  const table = aliases();
  for (let i = 0; i < words.length; i += 1) {
    for (let n = 1; n <= longestAlias && i + n <= words.length; n += 1) {
      const ids = table.get(words.slice(i, i + n).join(" ")) ?? [];
      if (options.unambiguous === true && ids.length !== 1) continue;
      for (const id of ids) out.add(id);
    }
  }
  return out;
}

/**
 * The words of a name one side states that stand for an entity the other side names by another
 * alias: every word of each run of `name` (one to `longestAlias` words) that names one of
 * `otherEntities` (a city of several words whose team the other side names by its nickname).
 * `otherEntities` are the other side's unambiguous ones (`entitiesIn(..., {unambiguous: true})`).
 */
export function aliasedWords(name: readonly string[], otherEntities: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  if (otherEntities.size === 0) return out;
  const table = aliases();
  for (let i = 0; i < name.length; i += 1) {
    for (let n = 1; n <= longestAlias && i + n <= name.length; n += 1) {
      const run = name.slice(i, i + n);
      if ((table.get(run.join(" ")) ?? []).some((id) => otherEntities.has(id))) for (const w of run) out.add(w);
    }
  }
  return out;
}
