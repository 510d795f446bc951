import { sql, type SQL } from "drizzle-orm";
import type { events } from "@/lib/db/schema/events";
import { marketRanks } from "@/lib/db/schema/market-ranks";
import { markets } from "@/lib/db/schema/markets";
import { estimateStatement, planRows } from "./totals";

/*
 * `query=` of GET /v0/markets and /v0/events: what matches and in which tier (docs/catalog.md, "Search").
 *
 * A query with a letter or digit is a word search: PostgreSQL's own parser splits it into words
 * exactly as it split every title and slug into `search_vector` (lib/db/schema/events.ts
 * `searchVectorOf`, the `simple` configuration: lower-cased, no stemming, no stop words). A row
 * matches when it has every word of the query, the last one typed also as the start of a word
 * (so "sen" finds "Senate" and "fed hol" finds "Fed holds"): in its title (tier 1) or, failing
 * that, in its title and slug together (tier 2). Tier 1 lists first, each tier in the list's order.
 *
 * Only the last word is a prefix because a prefix costs the GIN index a bitmap of every row under
 * it (no skipping): `'2027':*` alone collects a third of the catalog, 150-470 ms at 1M markets,
 * where whole words are intersected by skipping through their posting lists (docs/catalog.md).
 *
 * A query without a letter or digit (`%`, `?!`) has no words to look up: it matches as a literal,
 * case-insensitive substring of the title (tier 1) or slug (tier 2), as `query` always did.
 */

export type SearchTier = 1 | 2;

/** A table with a search vector; `market_ranks`' is a copy of `markets`' (its title and slug are read from `markets`). */
type SearchedTable = typeof markets | typeof events | typeof marketRanks;
const textOf = (table: SearchedTable) => (table === marketRanks ? markets : (table as typeof markets | typeof events));

/**
 * Runs one statement and answers its rows (the app: its Db; bench:catalog: the same SQL on its own
 * connection). `named`: the statement's plan does not depend on its values, so PostgreSQL may keep a
 * generic plan of it (a named, prepared statement) instead of planning it on every call.
 */
export type RunStatement = (statement: SQL, options?: { named?: boolean }) => Promise<Array<Record<string, unknown>>>;

/** Whether PostgreSQL's parser can find a word in the text (else the substring match applies). */
export const hasWords = (text: string): boolean => /[\p{L}\p{N}]/u.test(text);

/** `%text%` with the LIKE metacharacters of the user's text escaped (they match literally). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** One word of a search as the database split it: a whole word, or (the last one typed) the start of one. */
export interface SearchWord {
  lexeme: string;
  prefix: boolean;
}

/**
 * How a statement reads a word search: `index` lets the planner use the GIN index on every word;
 * `narrow` gives the GIN index only the whole words and tests the last word's prefix on the rows
 * they find (when the whole words are much rarer than the prefix: the prefix's bitmap is the
 * cost); `walk` gives the GIN index nothing, so the statement walks the list order's index and
 * tests each entry (a frequent search, which fills a page after a few thousand entries).
 */
export type SearchAccess = "index" | "narrow" | "walk";

/** What `query=` asks for: a word search (its words, how statements read it) or a literal substring. */
export type Search =
  | { kind: "words"; words: SearchWord[]; access: SearchAccess }
  | { kind: "substring"; pattern: string };

const MAX_CACHED = 1_000;
/** A text's words never change (the parser is fixed); the access choice follows the data, so it is kept a minute. */
const wordsCache = new Map<string, SearchWord[]>();
const accessCache = new Map<string, { at: number; access: "index" | "narrow" }>();
const ACCESS_MS = 60_000;

function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(key, value);
  return value;
}

/**
 * The words of a search text, split by the database's parser as titles and slugs were (so "2.5",
 * "e-mail" or "O'Neil" split like a title does; hyphens and underscores separate words as in
 * slugs), in the order typed: the word at the last position is a prefix unless it also appears
 * earlier in the text (then it was typed whole).
 */
async function splitWords(run: RunStatement, text: string): Promise<SearchWord[]> {
  const cached = wordsCache.get(text);
  if (cached !== undefined) return cached;
  const rows = await run(sql`select lexeme, array_length(positions, 1)::int as n, positions[array_length(positions, 1)]::int as last
    from unnest(to_tsvector('simple'::regconfig, translate(${text}::text, '-_', '  ')))`);
  const parsed = rows.map((row) => ({ lexeme: String(row.lexeme), n: Number(row.n), last: Number(row.last) }));
  const end = Math.max(0, ...parsed.map((w) => w.last));
  const words = parsed.map((w) => ({ lexeme: w.lexeme, prefix: w.last === end && w.n === 1 }));
  return remember(wordsCache, text, words);
}

/** A word as a tsquery operand: quoted (quotes doubled, backslashes escaped), `:*` for a prefix, `A` for the title only. */
function operand(word: SearchWord, titleOnly: boolean): string {
  const quoted = `'${word.lexeme.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
  const flags = `${word.prefix ? "*" : ""}${titleOnly ? "A" : ""}`;
  return flags === "" ? quoted : `${quoted}:${flags}`;
}

/** The words as one tsquery constant (bound text cast to tsquery: the planner estimates each word from the column's statistics). */
function tsquery(words: SearchWord[], titleOnly: boolean): SQL {
  return sql`${words.map((w) => operand(w, titleOnly)).join(" & ")}::tsquery`;
}

/**
 * Rows whose vector matches the words: by the GIN-indexable operator, or by its function (which no
 * index reads). The indexed form is one `@@` per word, in the words' order (`rarestFirst` puts the
 * rarest first): the GIN scan then has one key per word and the first key drives it, skipping the
 * others' posting lists to its items, where one `@@` of all the words runs the tsquery's consistent
 * function on every item of the rarest word. `djokovic & final & january` at 1M: 4.1 ms against
 * 5.2 ms (the fastest of 30), the same words rarest last 5.7 ms (docs/performance.md, "Search at 1M,
 * third pass").
 */
function matched(table: SearchedTable, words: SearchWord[], titleOnly: boolean, indexed: boolean): SQL {
  if (!indexed) return sql`ts_match_vq(${table.searchVector}, ${tsquery(words, titleOnly)})`;
  if (words.length <= 1) return sql`${table.searchVector} @@ ${tsquery(words, titleOnly)}`;
  return sql`(${sql.join(
    words.map((w) => sql`${table.searchVector} @@ ${tsquery([w], titleOnly)}`),
    sql` and `,
  )})`;
}

/** A search's words in the order `rarestFirst` chose, per table and words typed, kept a minute (ANALYZE moves it seldom). */
const orderCache = new Map<string, { at: number; words: SearchWord[] }>();

/**
 * The words in the order the GIN index reads them best: whole words rarest first, by the
 * frequencies ANALYZE sampled (pg_stats' most common elements of `search_vector`; a word it did not
 * list is rarer than every listed one), then the prefixes (each read whole into a bitmap, whatever
 * its place). The order changes no answer, only the scan.
 */
async function rarestFirst(run: RunStatement, tableName: string, words: SearchWord[]): Promise<SearchWord[]> {
  if (words.filter((w) => !w.prefix).length <= 1) return words;
  const key = JSON.stringify([tableName, words]);
  const hit = orderCache.get(key);
  if (hit !== undefined && Date.now() - hit.at < ACCESS_MS) return hit.words;
  const rows = await run(sql`select common.lexeme, common.frequency from pg_stats,
    unnest(most_common_elems::text::text[], most_common_elem_freqs) as common(lexeme, frequency)
    where schemaname = current_schema() and tablename = ${tableName} and attname = 'search_vector'
      and common.lexeme in (${sql.join(words.map((w) => sql`${w.lexeme}`), sql`, `)})`);
  const frequencies = new Map(rows.map((row) => [String(row.lexeme), Number(row.frequency)]));
  const rank = (w: SearchWord) => (w.prefix ? Number.POSITIVE_INFINITY : (frequencies.get(w.lexeme) ?? 0));
  return remember(orderCache, key, { at: Date.now(), words: [...words].sort((a, b) => rank(a) - rank(b)) }).words;
}

/** The estimate of rows whose vector matches `words` (EXPLAIN: no row read). */
async function estimate(run: RunStatement, table: SearchedTable, words: SearchWord[]): Promise<number> {
  return planRows(await run(estimateStatement(sql`${table}`, matched(table, words, false, true))));
}

/**
 * How a search with few matches (read whole from the GIN index) reads them: `narrow` when its
 * whole words, by the planner's estimate, match at most an eighth of the rows its prefix does
 * (then the rows of the whole words are fewer than the prefix's bitmap, even with a heap visit
 * each), else `index`. A search without a prefix, or of one word, is always `index`.
 */
export async function fewAccess(
  run: RunStatement,
  table: SearchedTable,
  tableName: string,
  search: Search,
): Promise<Search> {
  if (search.kind !== "words") return search;
  const words = await rarestFirst(run, tableName, search.words);
  const whole = words.filter((w) => !w.prefix);
  const prefix = words.filter((w) => w.prefix);
  if (whole.length === 0 || prefix.length === 0) return { ...search, words, access: "index" };
  const key = JSON.stringify([tableName, words]);
  const hit = accessCache.get(key);
  if (hit !== undefined && Date.now() - hit.at < ACCESS_MS) return { ...search, words, access: hit.access };
  const [wholeRows, prefixRows] = [await estimate(run, table, whole), await estimate(run, table, prefix)];
  const access = wholeRows * 8 <= prefixRows ? "narrow" : "index";
  remember(accessCache, key, { at: Date.now(), access });
  return { ...search, words, access };
}

/** The search of a `query=` text; `access` as the caller will read it (see SearchAccess). */
export async function searchOf(run: RunStatement, text: string, access: SearchAccess = "index"): Promise<Search> {
  if (!hasWords(text)) return { kind: "substring", pattern: containsPattern(text) };
  return { kind: "words", words: await splitWords(run, text), access };
}

/** Every row the search matches, either tier (what `meta.total` counts). */
export function searchMatches(table: SearchedTable, search: Search): SQL {
  const text = textOf(table);
  if (search.kind === "substring") return sql`(${text.title} ilike ${search.pattern} or ${text.slug} ilike ${search.pattern})`;
  return wordsMatch(table, search, false);
}

/** The rows of one tier: 1, the title matches; 2, only title and slug together do. */
export function searchTier(table: SearchedTable, search: Search, tier: SearchTier): SQL {
  if (search.kind === "substring") {
    const text = textOf(table);
    return tier === 1
      ? sql`${text.title} ilike ${search.pattern}`
      : sql`(${text.slug} ilike ${search.pattern} and not ${text.title} ilike ${search.pattern})`;
  }
  if (tier === 1) return wordsMatch(table, search, true);
  // Tier 2: title and slug together, and not the title alone (a test on rows already found).
  return sql`(${wordsMatch(table, search, false)} and not ${matched(table, search.words, true, false)})`;
}

/**
 * Whether a row already found by `searchMatches` is a title match (tier 1), as a test of that row
 * (never an index read): one statement reading every match of both tiers orders them by it.
 */
export function titleMatch(table: SearchedTable, search: Search): SQL {
  if (search.kind === "substring") return sql`${textOf(table).title} ilike ${search.pattern}`;
  if (search.words.length === 0) return sql`false`;
  return matched(table, search.words, true, false);
}

/** The words' match as `search.access` reads it; no word (a text the parser drops whole) matches nothing. */
function wordsMatch(table: SearchedTable, search: Extract<Search, { kind: "words" }>, titleOnly: boolean): SQL {
  if (search.words.length === 0) return sql`false`;
  switch (search.access) {
    case "index":
      return matched(table, search.words, titleOnly, true);
    case "walk":
      return matched(table, search.words, titleOnly, false);
    case "narrow": {
      const whole = search.words.filter((w) => !w.prefix);
      return sql`(${matched(table, whole, titleOnly, true)} and ${matched(table, search.words, titleOnly, false)})`;
    }
  }
}
