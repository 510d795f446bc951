import { sql, type SQL } from "drizzle-orm";
import type { events } from "@/lib/db/schema/events";
import type { markets } from "@/lib/db/schema/markets";

/*
 * `query=` of GET /v0/markets and /v0/events: what matches and in which tier (docs/catalog.md, "Search").
 *
 * A query with a letter or digit is a word search: PostgreSQL's own parser splits it into words
 * exactly as it split every title and slug into `search_vector` (lib/db/schema/events.ts
 * `searchVectorOf`, the `simple` configuration: lower-cased, no stemming, no stop words), and a row
 * matches when each word of the query starts a word of its title (tier 1) or, failing that, of its
 * title and slug together (tier 2). Tier 1 lists first, each tier in the list's own order.
 *
 * A query without a letter or digit (`%`, `?!`) has no words to look up: it matches as a literal,
 * case-insensitive substring of the title (tier 1) or slug (tier 2), as `query` always did.
 */

export type SearchTier = 1 | 2;

type SearchedTable = typeof markets | typeof events;

/** Whether PostgreSQL's parser can find a word in the text (else the substring match applies). */
export const hasWords = (text: string): boolean => /[\p{L}\p{N}]/u.test(text);

/** `%text%` with the LIKE metacharacters of the user's text escaped (they match literally). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The tsquery of a search text, every word a prefix (`'word':*`), restricted to weight A (the
 * title) for tier 1. Built by the database from its own parse of the text, so a query splits like
 * a title does ("2.5", "e-mail", "O'Neil"); hyphens and underscores separate words as in slugs.
 * Every function here is immutable, so with the text bound the planner folds this to a constant
 * and estimates each word's frequency from the column's statistics (drizzle's `execute` sends an
 * unnamed statement: planned with its parameters every time, never a generic plan).
 */
function wordsQuery(text: string, titleOnly: boolean): SQL {
  const suffix = titleOnly ? ":*A" : ":*";
  return sql`to_tsquery('simple'::regconfig, nullif(replace(strip(to_tsvector('simple'::regconfig, translate(${text}::text, '-_', '  ')))::text, ''' ''', ${`'${suffix} & '`}::text), '') || ${suffix}::text)`;
}

/** Every row the text matches, either tier (what `meta.total` counts). */
export function searchMatches(table: SearchedTable, text: string): SQL {
  if (!hasWords(text)) {
    const pattern = containsPattern(text);
    return sql`(${table.title} ilike ${pattern} or ${table.slug} ilike ${pattern})`;
  }
  return sql`${table.searchVector} @@ ${wordsQuery(text, false)}`;
}

/** The rows of one tier: 1, the title matches; 2, only title and slug together do. */
export function searchTier(table: SearchedTable, text: string, tier: SearchTier): SQL {
  if (!hasWords(text)) {
    const pattern = containsPattern(text);
    return tier === 1
      ? sql`${table.title} ilike ${pattern}`
      : sql`(${table.slug} ilike ${pattern} and not ${table.title} ilike ${pattern})`;
  }
  return tier === 1
    ? sql`${table.searchVector} @@ ${wordsQuery(text, true)}`
    : sql`(${table.searchVector} @@ ${wordsQuery(text, false)} and not ${table.searchVector} @@ ${wordsQuery(text, true)})`;
}
