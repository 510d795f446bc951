import "server-only";
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { preparedRunner, resultRows, type Db } from "@/lib/db";
import { events } from "@/lib/db/schema/events";
import { marketRanks } from "@/lib/db/schema/market-ranks";
import { markets } from "@/lib/db/schema/markets";
import { eventQuotes, marketQuotes } from "@/lib/db/schema/quotes";
import { encodeCursor, type Cursor, type ListSort } from "./cursor";
import { readCatalogGeneration } from "./generation";
import { eventColumns, isoText, marketColumns, marketVersion, quoteOfEvent, quoteOfMarket, toEventPublic, toMarketPublic, type ListedMarketRow } from "./public";
import { fewAccess, searchMatches, searchOf, searchTier, titleMatch, type RunStatement, type Search, type SearchTier } from "./search";
import { SEARCH_EXACT_LIMIT, TOTAL_EXACT_LIMIT, type EventPublic, type ListMeta, type ListQuery, type MarketPublic } from "./shapes";
import { estimateStatement, listTotal, planRows, type ListTotal } from "./totals";

export { containsPattern } from "./search";
export type { RunStatement } from "./search";

/* GET /v0/markets and GET /v0/events: filters, orders, totals and keyset paging. */

export interface ListResult<T> {
  data: T[];
  meta: ListMeta;
}

/**
 * The listing's select list: `marketColumns` under their property names, times as ISO text. The
 * listing reads the driver's rows as they are (lib/db `resultRows`), because drizzle's per-field
 * row mapping and the Date objects of three timestamps cost about 0.7 ms of CPU per page of 51
 * rows, twice the statement itself (docs/performance.md).
 */
const listedColumns = sql.raw(
  new PgDialect().sqlToQuery(
    sql.join(
      Object.entries(marketColumns).map(([name, column]) =>
        name === "resolutionDate" || name === "firstSeenAt"
          ? sql`${isoText(sql`${column}`)} as ${sql.identifier(name)}`
          : sql`${name === "lastSeenAt" ? marketColumns.lastSeenAt.getSQL() : column} as ${sql.identifier(name)}`,
      ),
      sql`, `,
    ),
  ).sql, // rendered once: no parameters in it, and rendering 22 column objects per request cost ~0.1 ms
);

type RankedTable = typeof markets | typeof events;

/** Where a list's sort keys and order indexes are: a market's in `market_ranks`, an event's in its row. */
type KeyedTable = typeof marketRanks | typeof events;
const keysOf = (table: RankedTable): KeyedTable => (table === markets ? marketRanks : events);

/**
 * One list order: the sort key as SQL (expression for expression the key of its index in
 * lib/db/schema, so the planner walks that index), its direction, the SQL that reads the key back
 * for a cursor at full precision, and how a cursor key binds.
 */
interface SortKey {
  expression: SQL;
  direction: "asc" | "desc";
  /**
   * Where the order's index puts nulls of a descending key: `last` unless the index says otherwise.
   * A key that is never null (a `coalesce`) lists the same either way, but the planner walks the
   * index only when ORDER BY says what the index says (else it sorts every row).
   */
  nulls?: "first";
  cursorValue: SQL;
  bind: (key: Cursor["key"]) => SQL;
}

const utcMicros = (column: SQL | KeyedTable["firstSeenAt"]) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

function sortKey(table: KeyedTable, sort: ListSort): SortKey {
  const float = (key: Cursor["key"]) => sql`${key}::float8`;
  switch (sort) {
    case "volume24h":
      return { expression: sql`${table.volume24h}`, direction: "desc", cursorValue: sql`${table.volume24h}`, bind: float };
    case "change24h":
      return { expression: sql`${table.absChange24h}`, direction: "desc", cursorValue: sql`${table.absChange24h}`, bind: float };
    case "liquidity":
      // Unknown liquidity sorts after every known value; its cursor key is null. The key is never
      // null, and its index (`coalesce(…) desc`, nulls first) is walked only by an ORDER BY that
      // says the same: with `desc nulls last` PostgreSQL sorted every open row (a parallel scan of
      // all of market_ranks, 260 ms at 1M for query=senate&sort=liquidity; docs/catalog.md, "Search").
      return {
        expression: sql`coalesce(${table.liquidity}, '-Infinity'::float8)`,
        direction: "desc",
        nulls: "first",
        cursorValue: sql`${table.liquidity}`,
        bind: (key) => (key === null ? sql`'-Infinity'::float8` : float(key)),
      };
    case "resolutionDate":
      // Soonest first, unknown dates last.
      return {
        expression: sql`coalesce(${table.resolutionDate}, 'infinity'::timestamptz)`,
        direction: "asc",
        cursorValue: utcMicros(sql`${table.resolutionDate}`),
        bind: (key) => (key === null ? sql`'infinity'::timestamptz` : sql`${key}::timestamptz`),
      };
    case "newest":
      return {
        expression: sql`${table.firstSeenAt}`,
        direction: "desc",
        cursorValue: utcMicros(table.firstSeenAt),
        bind: (key) => sql`${key}::timestamptz`,
      };
  }
}

/** The filters of both lists (no keyset position), `search` that of `query.query`. The closed filter is a literal so partial indexes apply. */
function filterConditions(table: RankedTable | typeof marketRanks, query: ListQuery, search: Search | undefined): SQL[] {
  const conditions: SQL[] = [];
  if (!query.closed) conditions.push(sql`${table.closed} = false`);
  if (query.category !== undefined) conditions.push(eq(table.category, query.category));
  if (query.exchange !== undefined) conditions.push(eq(table.venue, query.exchange));
  if (search !== undefined) conditions.push(searchMatches(table, search));
  return conditions;
}

const tableName = (table: RankedTable) => (table === markets ? "markets" : "events");

/** The search of `query.query` as a statement reading few matches from the GIN index takes it (lib/catalog/search.ts). */
async function indexedSearch(run: RunStatement, table: RankedTable, query: ListQuery): Promise<Search | undefined> {
  if (query.query === undefined) return undefined;
  return fewAccess(run, table, tableName(table), await searchOf(run, query.query));
}

/** meta.total / meta.totalEstimate of a list's filters (lib/catalog/totals.ts has the rule). */
async function countMatches(db: Db, table: RankedTable, query: ListQuery, generation?: string): Promise<ListTotal> {
  const cacheKey = JSON.stringify([tableName(table), query.closed, query.category ?? null, query.exchange ?? null, query.query ?? null]);
  return listTotal(
    db,
    sql`${table}`,
    async () => {
      const conditions = filterConditions(table, query, await indexedSearch(runOn(db), table, query));
      return conditions.length > 0 ? and(...conditions) : undefined;
    },
    cacheKey,
    {
      catalog: generation,
      // The planner's estimate of the words whole, a floor of the prefix's rows (lib/catalog/totals.ts):
      // without it a one-word search, whose word is always a prefix, counted every row up to the bound
      // however frequent the word (`price`, 25 % of titles: 243-1,363 ms at 1M; docs/performance.md).
      whole: async () => {
        if (query.query === undefined) return undefined;
        const search = await searchOf(runOn(db), query.query);
        if (search.kind !== "words" || !search.words.some((w) => w.prefix)) return undefined;
        return and(...filterConditions(table, query, { ...search, words: search.words.map((w) => ({ ...w, prefix: false })) }));
      },
      // A search counts no further than its plan needs (FEW_MATCHES): each match costs a recheck of its row.
      exactLimit: query.query === undefined ? TOTAL_EXACT_LIMIT : SEARCH_EXACT_LIMIT,
    },
  );
}

/**
 * The WHERE of one list statement: the filters (with a search, only the given tier's matches) plus
 * the keyset position when the cursor sits in this tier. Every value binds (never concatenated).
 */
function listConditions(table: RankedTable | typeof marketRanks, query: ListQuery, search: Search | undefined, key: SortKey, tier: SearchTier): SQL | undefined {
  const conditions = filterConditions(table, query, undefined);
  if (search !== undefined) conditions.push(searchTier(table, search, tier));
  const position = keysetPosition(query, key, key.expression, sql`${table.id}`, tier);
  if (position !== undefined) conditions.push(position);
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** Rows after the cursor's position in the list's order (`sortKey`, `id`: the row's), when the cursor sits in this tier. */
function keysetPosition(query: ListQuery, key: SortKey, sortKey: SQL, id: SQL, tier: SearchTier): SQL | undefined {
  if (query.cursor === undefined || (query.query !== undefined && (query.cursor.tier ?? 1) !== tier)) return undefined;
  const after = key.direction === "desc" ? sql`<` : sql`>`;
  return sql`(${sortKey}, ${id}) ${after} (${key.bind(query.cursor.key)}, ${query.cursor.id}::uuid)`;
}

/** ORDER BY of a list: the sort key, ties by id in the same direction (one row comparison walks the index). */
const orderOf = (table: KeyedTable, key: SortKey) =>
  key.direction === "desc"
    ? [key.nulls === "first" ? sql`${key.expression} desc nulls first` : sql`${key.expression} desc nulls last`, sql`${table.id} desc nulls last`]
    : [sql`${key.expression} asc`, sql`${table.id} asc`];

/**
 * ORDER BY of a page read back from its ids' subquery (`page`), which carries each row's sort key
 * (`sort_key`, the key's expression) and id in the list's order (`pageIds` for markets).
 */
const pageOrder = (key: SortKey) =>
  key.direction === "desc"
    ? [key.nulls === "first" ? sql`page.sort_key desc nulls first` : sql`page.sort_key desc nulls last`, sql`page.id desc nulls last`]
    : [sql`page.sort_key asc`, sql`page.id asc`];

/** The default order (volume24h desc, id desc), used by nested markets and lookups. */
export const rankOrder = (table: KeyedTable) => orderOf(table, sortKey(table, "volume24h"));

const sortOf = (query: ListQuery): ListSort => query.sort ?? "volume24h";

/** A listed row with what its cursor needs: its sort key and, in a search, its tier. */
type Ranked = { id: string; cursorKey: number | string | null; tier?: SearchTier };

/**
 * Pages fetch one row more than `limit`: its presence says whether a next page exists, so
 * `nextCursor` is null exactly on the last page (never an empty page after a full one).
 */
function page<R extends Ranked>(rows: R[], query: ListQuery): { rows: R[]; nextCursor: string | null } {
  if (rows.length <= query.limit) return { rows, nextCursor: null };
  const shown = rows.slice(0, query.limit);
  const last = shown.at(-1);
  if (last === undefined) return { rows: shown, nextCursor: null };
  const key = last.cursorKey === null ? null : typeof last.cursorKey === "string" ? last.cursorKey : Number(last.cursorKey);
  return { rows: shown, nextCursor: encodeCursor({ sort: sortOf(query), key, id: last.id, ...(last.tier === 2 ? { tier: 2 } : {}) }) };
}

/**
 * At most this many matches (meta.total, exact) and a search reads every match and sorts them; more,
 * and it walks the order's index until the page is full: at 2,000 matches in 1M rows that walk
 * passes ~25,000 index entries for a page of 51 (index-only: a few ms), and reading 2,000 matches
 * from the heap costs about the same.
 */
const FEW_MATCHES = SEARCH_EXACT_LIMIT;

/**
 * A search within one category (default order) walks `market_ranks_category_rank_idx`, which carries
 * `closed` and `search_vector` like the rank index, when that walk passes at most this many
 * entries to fill the page: `limit + 1` times the category's rows over the search's matches
 * (the walk meets matches at that rate). 25,000 entries index-only is what FEW_MATCHES's walk
 * passes at 1M rows; past it, the GIN index reads every match and they are sorted.
 */
const WALK_ENTRIES = 25_000;

/** The planner's estimate of a filter set's rows, kept a minute per filter set (EXPLAIN, no rows read). */
const filterRowsCache = new Map<string, { at: number; rows: number }>();
const FILTER_ROWS_MS = 60_000;

async function filterRows(run: RunStatement, table: RankedTable, query: ListQuery): Promise<number> {
  const key = JSON.stringify([tableName(table), query.closed, query.category ?? null, query.exchange ?? null]);
  const hit = filterRowsCache.get(key);
  if (hit !== undefined && Date.now() - hit.at < FILTER_ROWS_MS) return hit.rows;
  const where = and(...filterConditions(table, query, undefined));
  const rows = planRows(await run(estimateStatement(sql`${table}`, where)));
  if (filterRowsCache.size >= 1_000) filterRowsCache.clear();
  filterRowsCache.set(key, { at: Date.now(), rows });
  return rows;
}

/**
 * Whether a search with `total` matches (exact) reads them all from the GIN index (`few`) rather
 * than walking the list's order: at most FEW_MATCHES, and, within a category or a venue in the
 * default order (a covering walk, `WALK_ENTRIES`), few enough that the walk would pass more entries.
 */
async function readsFew(run: RunStatement, table: RankedTable, query: ListQuery, total: number): Promise<boolean> {
  if (total > FEW_MATCHES) return false;
  // The covering walks: a category's or a venue's rank index (not both: `market_ranks_category_venue_rank_idx` carries no vector).
  const oneFilter = (query.category === undefined) !== (query.exchange === undefined);
  if (table !== markets || !oneFilter || sortOf(query) !== "volume24h") return true;
  return (query.limit + 1) * (await filterRows(run, table, query)) > WALK_ENTRIES * total;
}

/**
 * How a search's statement reads its rows: `false`, walking the list's order; `true`, every match
 * from the GIN index (with the filters as the planner likes); `"unfiltered"`, every match of the
 * search alone from the GIN index, the category and venue tested on those rows after.
 */
type Few = boolean | "unfiltered";

/** Exact counts (<= FEW_MATCHES + 1) of a search without its category and venue, kept 15 s (they pick a plan, never an answer). */
const aloneCache = new Map<string, { at: number; n: number }>();
const ALONE_MS = 15_000;

/**
 * Whether a search with few matches and a category or venue filter reads the search's matches
 * alone (`"unfiltered"`): when the search alone has at most FEW_MATCHES, so that many rows at most
 * are tested. Without this the planner, which estimates a word absent from the column's
 * statistics at 0.5 % of rows, ANDs the GIN bitmap of a 20-row word with the category's 100,000
 * index entries (13-16 ms at 1M) where the 20 rows alone take 0.2 ms (docs/catalog.md, "Search").
 */
async function fewUnfiltered(run: RunStatement, table: RankedTable, query: ListQuery, search: Search): Promise<boolean> {
  if (query.category === undefined && query.exchange === undefined) return false;
  const key = JSON.stringify([tableName(table), query.closed, search]);
  const hit = aloneCache.get(key);
  let n = hit !== undefined && Date.now() - hit.at < ALONE_MS ? hit.n : undefined;
  if (n === undefined) {
    const where = and(...filterConditions(table, { ...query, category: undefined, exchange: undefined }, search));
    const counted = await run(sql`select count(*)::int as n from (select 1 from ${table}${where === undefined ? sql`` : sql` where ${where}`} limit ${FEW_MATCHES + 1}) as matches`);
    n = Number(counted[0]?.n ?? 0);
    if (aloneCache.size >= 1_000) aloneCache.clear();
    aloneCache.set(key, { at: Date.now(), n });
  }
  return n <= FEW_MATCHES;
}

/**
 * The rows of a list page, `limit + 1` of them at most. Without `query`, one statement in the
 * list's order. With it, title matches (tier 1) come first: their statement runs alone, and the
 * matches by title and slug together (tier 2) are read only when tier 1 ran out on this page
 * (a rare word, or the end of a common one's list). Each tier's statement keeps the list's order,
 * so each walks an index or sorts only its own matches (docs/catalog.md, "Search").
 */
async function pageRows<R extends Ranked>(
  query: ListQuery,
  table: RankedTable,
  statement: (tier: TierRead, limit: number, offset: number, few: Few, search: Search | undefined) => SQL,
  countTier: (upTo: number, search: Search | undefined) => SQL,
  run: RunStatement,
  total?: ListTotal,
  decode: (rows: Array<Record<string, unknown>>) => Array<Record<string, unknown>> = (rows) => rows,
): Promise<R[]> {
  const wanted = query.limit + 1;
  // A search with few matches reads them all and sorts them (GIN bitmap); a frequent one walks the
  // list's order. The exact total decides, not the planner: a word absent from the column's
  // statistics is estimated at 0.5% of rows (PostgreSQL 15), and a walk for a word with 20
  // matches at that estimate reads the whole index, while a GIN bitmap of two frequent words'
  // prefixes costs 200 ms where walking to a page of their 2,400 matches costs a few
  // (docs/catalog.md, "Search"). So a frequent search's statement gives the GIN index nothing.
  const few =
    query.query !== undefined && total?.total !== null && total?.total !== undefined && (await readsFew(run, table, query, total.total));
  const search =
    query.query === undefined ? undefined : few ? await indexedSearch(run, table, query) : await searchOf(run, query.query, "walk");
  const mode: Few = few && search !== undefined && (await fewUnfiltered(run, table, query, search)) ? "unfiltered" : few;
  // Few matches: one statement reads every match of both tiers and orders them tier first; its rows
  // carry their tier. Two statements (a plan and a round trip each) cost a rare word 3-5 ms more at
  // 1M under load (docs/performance.md), and an offset past tier 1 needs no count of it. Its plan
  // is fixed by its fence whatever the words (the GIN index's matches, then a sort), so it is sent
  // named: a generic plan instead of ~1 ms of planning per page.
  if (mode !== false && search !== undefined) return decode(await run(statement("both", wanted, query.offset, mode, search), { named: true })) as R[];
  // A search's walk is named too when its page size is written into it (`walkBound`: no offset).
  const read = async (tier: SearchTier, limit: number, offset: number) =>
    (decode(await run(statement(tier, limit, offset, mode, search), { named: walkBound(query, limit, offset) !== undefined })) as R[]).map((row) =>
      query.query === undefined ? row : { ...row, tier },
    );
  if (query.query === undefined || query.cursor?.tier === 2) return read(query.query === undefined ? 1 : 2, wanted, query.offset);
  const first = await read(1, wanted, query.offset);
  if (first.length >= wanted) return first;
  // Tier 1 ended on this page. An offset past its end skips the rest of the offset into tier 2.
  let skip = 0;
  if (first.length === 0 && query.offset > 0) {
    const counted = Number((await run(countTier(query.offset, search)))[0]?.n ?? 0);
    skip = query.offset - counted;
  }
  return [...first, ...(await read(2, wanted - first.length, skip))];
}

/**
 * The LIMIT of a search's walk written as a literal (no offset): a generic plan of `limit $n` takes
 * it for a tenth of the rows and hash-joins a scan of all of `market_ranks` (1.2-2.7 s at 1M, JIT
 * included), where `limit 51` keeps the walk of the order's index (0.04 ms to plan against 1.0-1.8
 * ms). Only a whole page's size (`limit + 1`, an integer of 2..501) is written in, so a shape has
 * at most 500 such texts per connection; an offset (rare; a cursor is the norm) or the rest of a
 * page after tier 1 ran out keeps both bound and the statement unnamed, planned per call.
 */
function walkBound(query: ListQuery, limit: number, offset: number): SQL | undefined {
  if (query.query === undefined || offset !== 0 || limit !== query.limit + 1 || !Number.isSafeInteger(limit) || limit > 1_000) return undefined;
  return sql.raw(`limit ${limit} offset 0`);
}

/** Which rows of a search a page statement reads: one tier's, or (`"both"`, few matches) both tiers', tier 1 first, each row with its tier. */
type TierRead = SearchTier | "both";

/** Rows after the cursor's position in a list of both tiers (`tier`, then the list's order), the cursor's tier 1 when it carries none. */
function bothTiersPosition(query: ListQuery, key: SortKey, tier: SQL, sortKey: SQL, id: SQL): SQL | undefined {
  if (query.cursor === undefined) return undefined;
  const after = key.direction === "desc" ? sql`<` : sql`>`;
  const cursorTier = query.cursor.tier ?? 1;
  return sql`(${tier} > ${cursorTier} or (${tier} = ${cursorTier} and (${sortKey}, ${id}) ${after} (${key.bind(query.cursor.key)}, ${query.cursor.id}::uuid)))`;
}

/**
 * The ids of a page in the list's order: one tier's (`tier` 1 or 2) by a walk of the order's index
 * that tests each entry, or, for a search with few matches (`"both"`), every match read first
 * (`bothTierIds`).
 */
function pageIds(table: RankedTable, query: ListQuery, search: Search | undefined, tier: TierRead, limit: number, offset: number, few: Few): SQL {
  if (tier === "both") return bothTierIds(table, query, search, limit, offset, few);
  const keyed = keysOf(table);
  const key = sortKey(keyed, sortOf(query));
  // A market's walk reads `market_ranks` alone; `markets` joins only for a substring search of
  // its title and slug (PostgreSQL drops a left join on a unique key that nothing reads).
  const where = listConditions(keyed, query, search, key, tier);
  const filter = where === undefined ? sql`` : sql` where ${where}`;
  const from = keyed === marketRanks ? sql`${marketRanks} left join ${markets} on ${markets.id} = ${marketRanks.id}` : sql`${keyed}`;
  const bound = walkBound(query, limit, offset) ?? sql`limit ${limit} offset ${offset}`;
  // A market's walk also answers each row's sort key and cursor key, read off the entry or row it
  // already visits, so the page needs no second probe of `market_ranks` per row (`marketTierStatement`).
  const keys = keyed === marketRanks ? sql`, ${key.expression} as sort_key, ${key.cursorValue} as cursor_key` : sql``;
  return sql`select ${keyed.id} as id${keys} from ${from}${filter} order by ${sql.join(orderOf(keyed, key), sql`, `)} ${bound}`;
}

/**
 * The ids of a page of a search with few matches, both tiers in one statement: an `offset 0` (or
 * bounded) fence makes PostgreSQL read every match of the search, either tier, from the GIN index
 * before it sorts them, instead of walking the order's index; each match gets its tier (a title test
 * of the row: `titleMatch`); then the cursor's position, ordered tier first, then the list's order.
 * Answers `id` and `tier`.
 */
function bothTierIds(table: RankedTable, query: ListQuery, search: Search | undefined, limit: number, offset: number, few: Few): SQL {
  const keyed = keysOf(table);
  const key = sortKey(keyed, sortOf(query));
  // "unfiltered": the fence keeps category and venue out of the scan (they are tested on its rows
  // after), so the planner cannot AND the GIN bitmap with a filter index's (`fewUnfiltered`).
  const inner = few === "unfiltered" ? { ...query, category: undefined, exchange: undefined } : query;
  // A market's matches come from `markets` (its GIN index) inside the fence, their sort keys from
  // `market_ranks` by one primary-key probe each outside it (a lateral subquery behind its own
  // fence). Planned as a join, the planner's estimate of a rare word (0.5 % of rows, 5,000 at 1M)
  // chose two parallel workers (60-90 ms to start on the loaded 2 cores) or a hash join over all
  // of `market_ranks` (550 ms) for a 20-row word (docs/catalog.md, "Search"). The fence's bound,
  // twice the FEW_MATCHES that chose this path, caps that estimate: without it the statement's cost
  // (200,000 at 1M) passed PostgreSQL's JIT threshold, 64 ms of compiling for a 0.5 ms statement.
  const where = and(...filterConditions(table, inner, search));
  const filter = where === undefined ? sql`` : sql` where ${where}`;
  const tier = search === undefined ? sql`1` : sql`case when ${titleMatch(table, search)} then 1 else 2 end`;
  const joined = keyed !== table;
  const sortKeyOf = joined ? sql`ranked.sort_key` : sql`matches.sort_key`;
  const outer: SQL[] = [];
  if (few === "unfiltered" && query.category !== undefined) outer.push(sql`matches.category = ${query.category}`);
  if (few === "unfiltered" && query.exchange !== undefined) outer.push(sql`matches.venue = ${query.exchange}`);
  const position = bothTiersPosition(query, key, sql`matches.tier`, sortKeyOf, sql`matches.id`);
  if (position !== undefined) outer.push(position);
  const direction = key.direction === "desc" ? sql`desc nulls last` : sql`asc`;
  const probe = sql` cross join lateral (select ${key.expression} as sort_key, ${key.cursorValue} as cursor_key from ${keyed} where ${keyed.id} = matches.id offset 0) as ranked`;
  return sql`select matches.id, matches.tier${joined ? sql`, ranked.sort_key, ranked.cursor_key` : sql``} from (select ${table.id} as id, ${tier} as tier${joined ? sql`` : sql`, ${key.expression} as sort_key`}, ${table.category} as category, ${table.venue} as venue
    from ${table}${filter} ${joined ? sql`limit ${FEW_MATCHES * 2}` : sql`offset 0`}) as matches${joined ? probe : sql``}${outer.length === 0 ? sql`` : sql` where ${and(...outer)}`}
    order by matches.tier, ${sortKeyOf} ${direction}, matches.id ${direction} limit ${limit} offset ${offset}`;
}

/**
 * The SQL behind a page of GET /v0/markets for one tier: the page's ids from `market_ranks` alone (an
 * index walk, index-only for a search in the default order: market_ranks_rank_idx carries `closed` and
 * `search_vector`) with each row's sort and cursor keys as the walk read them (no second probe of
 * `market_ranks`), then their columns and quotes by primary key, 51 rows at most, answered as ONE
 * JSON array in the page's order (`rowNumber`): the driver then hands over one text value for one
 * `JSON.parse`, instead of decoding 24 columns of every row, about 0.5 ms of the server's CPU per
 * page of 51 (docs/performance.md). The values are those the columns had (float8 and JSON as
 * PostgreSQL writes them, times already ISO text).
 */
function marketTierStatement(query: ListQuery, search: Search | undefined, tier: TierRead, limit: number, offset: number, few: Few, read: PageRead = "rows"): SQL {
  const key = sortKey(marketRanks, sortOf(query));
  const order = sql.join([...(tier === "both" ? [sql`page.tier`] : []), ...pageOrder(key)], sql`, `);
  const columns = read === "rows" ? listedColumns : sql`${markets.id} as id, ${marketVersion} as version`;
  return sql`select coalesce(json_agg(page_rows order by page_rows."rowNumber"), '[]')::text as page from (
    select ${columns}, page.cursor_key as "cursorKey",${tier === "both" ? sql` page.tier as tier,` : sql``} row_number() over (order by ${order}) as "rowNumber"
    from (${pageIds(markets, query, search, tier, limit, offset, few)}) as page
    join ${markets} on ${markets.id} = page.id join ${marketQuotes} on ${quoteOfMarket}) as page_rows`;
}

/**
 * What a page's statement answers for each row: `rows`, the columns of the public market
 * (`listedColumns`); `versions`, only its id and the version of those columns (`marketVersion`),
 * for a page whose markets' public JSON is kept (`marketListingJson`).
 */
type PageRead = "rows" | "versions";

/** The rows of a page answered by `marketTierStatement` (one JSON text). */
function pageOfJson(rows: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  const text = rows[0]?.page;
  return typeof text === "string" ? (JSON.parse(text) as Array<Record<string, unknown>>) : [];
}

/** How many of a search's title matches there are, counting at most `upTo` (an offset past tier 1). */
function tierCount(table: RankedTable, query: ListQuery, search: Search | undefined, upTo: number): SQL {
  const where = listConditions(table, { ...query, cursor: undefined }, search, sortKey(keysOf(table), sortOf(query)), 1);
  return sql`select count(*)::int as n from (select 1 from ${table}${where === undefined ? sql`` : sql` where ${where}`} limit ${upTo}) as matches`;
}

/** The rows of one page of GET /v0/markets, through `run` (exported so bench:catalog runs the very same SQL directly). */
export function marketPageRows(query: ListQuery, run: RunStatement, total?: ListTotal) {
  return pageRows<ListedMarketRow & Ranked>(
    query,
    markets,
    (tier, limit, offset, few, search) => marketTierStatement(query, search, tier, limit, offset, few),
    (upTo, search) => tierCount(markets, query, search, upTo),
    run,
    total,
    pageOfJson,
  );
}

/** A listed market's id and the version of its public columns (`marketVersion`). */
type VersionedRow = Ranked & { version: string };

/**
 * The ids and versions of one page of GET /v0/markets, through `run`: the same rows in the same
 * order as `marketPageRows` (the same statement, answering `versions`), exported so bench:catalog
 * runs the very SQL the endpoint runs.
 */
export function marketPageVersions(query: ListQuery, run: RunStatement, total?: ListTotal) {
  return pageRows<VersionedRow>(
    query,
    markets,
    (tier, limit, offset, few, search) => marketTierStatement(query, search, tier, limit, offset, few, "versions"),
    (upTo, search) => tierCount(markets, query, search, upTo),
    run,
    total,
    pageOfJson,
  );
}

/** meta.total / meta.totalEstimate of GET /v0/markets for `query` (what picks a search's plan; bench:catalog passes it on). */
export const marketTotal = (db: Db, query: ListQuery): Promise<ListTotal> => countMatches(db, markets, query);

const runOn = (db: Db): RunStatement => async (statement) => resultRows(await db.execute(statement));

const listDialect = new PgDialect({ casing: "snake_case" });

/**
 * A page of GET /v0/markets as named (prepared) statements on PostgreSQL where the plan does not
 * follow the values: the server parses and describes each text once per connection and keeps a
 * generic plan, instead of planning on every request (drizzle's `execute` sends an unnamed
 * statement). That was 0.5 ms of the server's CPU per listing page of 51 rows (docs/performance.md).
 * A listing's text is kept per shape (`listingText`). A search's statement is named only when
 * `pageRows` says its plan is fixed by its text (few matches behind a fence; a walk with its page
 * size as a literal, `walkBound`); the rest (EXPLAINs, counts, the parser's split, a walk with an
 * offset) stay unnamed, planned per call (docs/catalog.md, "Search"). PGlite runs `db.execute`.
 */
function listingRunner(db: Db, query: ListQuery, read: PageRead): RunStatement {
  const prepared = preparedRunner(db);
  if (prepared === undefined) return runOn(db);
  if (query.query !== undefined) {
    return async (statement, options) => {
      if (options?.named !== true) return runOn(db)(statement);
      const { sql: text, params } = listDialect.sqlToQuery(statement);
      return prepared(text, params);
    };
  }
  return async (statement) => {
    const { text, params } = listingText(query, statement, read);
    return prepared(text, params);
  };
}

/**
 * A listing page's statement text (no `query=`) depends only on its shape: the sort, `closed`,
 * whether a category, a venue and a cursor are given, and whether the cursor's key binds (a null
 * key of `liquidity` and `resolutionDate` is a literal). Its parameters are the page's values in
 * the order `filterConditions`, `listConditions` and `pageIds` bind them. Rendering the statement
 * (drizzle's `sqlToQuery`) cost ~50 µs of the server's CPU per page (docs/performance.md, "Third
 * pass"), so the text is kept per shape; it is kept only when a render's parameters are exactly
 * `listingParams`, so a statement whose binding order changes is rendered every time, never
 * answered with the wrong values.
 */
const listingTexts = new Map<string, string>();

function listingShape(query: ListQuery, read: PageRead): string {
  const cursor = query.cursor === undefined ? "none" : query.cursor.key === null ? "null key" : "key";
  return JSON.stringify([read, sortOf(query), query.closed, query.category !== undefined, query.exchange !== undefined, cursor]);
}

/** The parameters of a listing page's statement, in the order they bind (`listingText` checks this on every render). */
export function listingParams(query: ListQuery): unknown[] {
  const params: unknown[] = [];
  if (query.category !== undefined) params.push(query.category);
  if (query.exchange !== undefined) params.push(query.exchange);
  if (query.cursor !== undefined) {
    const literal = query.cursor.key === null && (sortOf(query) === "liquidity" || sortOf(query) === "resolutionDate");
    if (!literal) params.push(query.cursor.key);
    params.push(query.cursor.id);
  }
  params.push(query.limit + 1, query.offset);
  return params;
}

/**
 * The text and parameters of `statement`, a listing page of `query` (no `query=`) answering `read`
 * (part of the shape: the two statements of a shape differ in their select list only): the text
 * from its shape once rendered.
 */
export function listingText(query: ListQuery, statement: SQL, read: PageRead = "rows"): { text: string; params: unknown[] } {
  const shape = listingShape(query, read);
  const text = listingTexts.get(shape);
  if (text !== undefined) return { text, params: listingParams(query) };
  const rendered = listDialect.sqlToQuery(statement);
  const params = listingParams(query);
  const same = rendered.params.length === params.length && rendered.params.every((value, i) => Object.is(value, params[i]));
  if (same) listingTexts.set(shape, rendered.sql);
  return { text: rendered.sql, params: rendered.params };
}

/** GET /v0/markets: one flat list across venues, by 24h volume unless `sort` says otherwise. */
export async function searchMarkets(db: Db, query: ListQuery): Promise<ListResult<MarketPublic>> {
  // A search's page waits for its total (cached per filter set), which picks its plan (`pageRows`).
  const total = await countMatches(db, markets, query);
  const rows = await marketPageRows(query, listingRunner(db, query, "rows"), total);
  const { rows: shown, nextCursor } = page(rows, query);
  const data = shown.map(toMarketPublic);
  return { data, meta: { count: data.length, limit: query.limit, offset: query.offset, nextCursor, ...total } };
}

/**
 * Each market's public JSON (`JSON.stringify(toMarketPublic(row))`) as the listing last wrote it,
 * with the version of the columns it was written from (`marketVersion`), per database handle (a
 * fresh database reuses transaction ids, so a kept version means something only for the handle
 * that read it). At most LISTED_JSON_ENTRIES markets (~1.3 KB each: ~2.6 MB), the least recently
 * listed dropped first; an entry is used at most LISTED_JSON_MS after it was written, far below the
 * time PostgreSQL takes to reuse a transaction id (2^32 of them), so an old version can never be
 * taken for a new one.
 */
const listedJson = new WeakMap<Db, Map<string, { version: string; json: string; at: number }>>();
const LISTED_JSON_ENTRIES = 2_048;
const LISTED_JSON_MS = 10 * 60_000;

/** The public JSON of a page's markets in its order: kept ones whose version is unchanged, the others read by id and shaped (a market gone since is left out). */
async function listedMarketJson(db: Db, rows: readonly VersionedRow[]): Promise<string[]> {
  let kept = listedJson.get(db);
  if (kept === undefined) {
    kept = new Map();
    listedJson.set(db, kept);
  }
  const now = Date.now();
  const texts: Array<string | undefined> = [];
  const missing: string[] = [];
  for (const row of rows) {
    const entry = kept.get(row.id);
    if (entry !== undefined && entry.version === row.version && now - entry.at < LISTED_JSON_MS) {
      // Most recently listed last: the Map's order is the eviction order.
      kept.delete(row.id);
      kept.set(row.id, entry);
      texts.push(entry.json);
    } else {
      texts.push(undefined);
      missing.push(row.id);
    }
  }
  if (missing.length === 0) return texts as string[];
  // Ids come from the database (uuid text): an array literal needs no quoting.
  const read = await runOn(db)(sql`select coalesce(json_agg(listed), '[]')::text as page from (
    select ${listedColumns}, ${marketVersion} as version from ${markets} join ${marketQuotes} on ${quoteOfMarket}
    where ${markets.id} = any(${`{${missing.join(",")}}`}::uuid[])) as listed`);
  const fresh = new Map<string, string>();
  for (const row of pageOfJson(read) as Array<ListedMarketRow & { version: string }>) {
    const json = JSON.stringify(toMarketPublic(row));
    fresh.set(row.id, json);
    kept.delete(row.id);
    kept.set(row.id, { version: row.version, json, at: now });
  }
  while (kept.size > LISTED_JSON_ENTRIES) {
    const oldest = kept.keys().next();
    if (oldest.done === true) break;
    kept.delete(oldest.value);
  }
  const out: string[] = [];
  rows.forEach((row, i) => {
    const text = texts[i] ?? fresh.get(row.id);
    if (text !== undefined) out.push(text);
  });
  return out;
}

/**
 * Whole answers of GET /v0/markets as UTF-8 bytes, per database handle, by the page's query: each
 * with what the bytes were made of (`pageFingerprint`). At most LISTED_PAGE_BYTES in all (the
 * least recently answered dropped first), each used at most LISTED_JSON_MS after it was made, for
 * the reason the kept market JSON is.
 */
interface KeptPages {
  /** `generation`: the catalog generation read before the statement the bytes were made from (or found unchanged by). */
  pages: Map<string, { fingerprint: string; generation: string; bytes: Buffer<ArrayBuffer>; at: number }>;
  bytes: number;
}
const listedPages = new WeakMap<Db, KeptPages>();
const LISTED_PAGE_BYTES = 4 * 1024 * 1024;

function keptPagesOf(db: Db): KeptPages {
  let kept = listedPages.get(db);
  if (kept === undefined) {
    kept = { pages: new Map(), bytes: 0 };
    listedPages.set(db, kept);
  }
  return kept;
}

/** Keeps a page's answer (replacing what was kept for its query), then drops the least recently answered past the bound. */
function keepPage(kept: KeptPages, key: string, fingerprint: string, generation: string, bytes: Buffer<ArrayBuffer>, at: number): void {
  if (bytes.byteLength > LISTED_PAGE_BYTES) return;
  const old = kept.pages.get(key);
  if (old !== undefined) {
    kept.pages.delete(key);
    kept.bytes -= old.bytes.byteLength;
  }
  kept.pages.set(key, { fingerprint, generation, bytes, at });
  kept.bytes += bytes.byteLength;
  for (const [oldestKey, oldest] of kept.pages) {
    if (kept.bytes <= LISTED_PAGE_BYTES) break;
    kept.pages.delete(oldestKey);
    kept.bytes -= oldest.bytes.byteLength;
  }
}

/**
 * Everything a page's answer is made of besides its query: the markets listed, in order, each with
 * the version of its public columns (the bytes of a market at a version are fixed: its kept JSON),
 * the next cursor and the total. Two answers of one query with the same fingerprint are the same
 * bytes (lib/catalog/listing-json.test.ts).
 */
function pageFingerprint(rows: readonly VersionedRow[], nextCursor: string | null, total: ListTotal): string {
  let text = `${nextCursor ?? ""}\n${total.total ?? ""}\n${total.totalEstimate ?? ""}`;
  for (const row of rows) text += `\n${row.id} ${row.version}`;
  return text;
}

/**
 * GET /v0/markets answered as UTF-8 bytes: the same JSON as `JSON.stringify(await searchMarkets(db,
 * query))`, byte for byte (lib/catalog/listing-json.test.ts), without shaping and serialising every
 * market of every page.
 *
 * A page kept for the same query at the same catalog generation (`generation`, read before any of
 * this page's statements: by admission's own statement when the route asked it to, else here) is
 * answered as those bytes with no statement at all: no catalog write committed between the read
 * its bytes were made after and this one (lib/catalog/generation.ts; docs/performance.md, "Eighth
 * pass"). Otherwise the page's statement answers each market's id and version (`marketVersion`) in
 * place of its columns; a market whose public JSON is kept at that version is copied into the
 * answer, the others are read by id, shaped and kept (`listedMarketJson`). The JSON is kept when it
 * is read, not written by the upsert: a write costs nothing more, and a market that is never listed
 * is never shaped (docs/performance.md, "Fifth pass"). A page whose statement answers what it
 * answered last time for the same query (`pageFingerprint`) is the bytes written then
 * (docs/performance.md, "Sixth pass: where a page's server CPU goes").
 */
export async function marketListingJson(db: Db, query: ListQuery, generation?: string): Promise<Buffer<ArrayBuffer>> {
  const catalog = generation ?? (await readCatalogGeneration(db));
  const kept = keptPagesOf(db);
  const key = JSON.stringify(query);
  const now = Date.now();
  const hit = kept.pages.get(key);
  const fresh = hit !== undefined && now - hit.at < LISTED_JSON_MS;
  if (fresh && hit.generation === catalog) {
    // Most recently answered last: the Map's order is the eviction order.
    kept.pages.delete(key);
    kept.pages.set(key, hit);
    return hit.bytes;
  }
  const total = await countMatches(db, markets, query, catalog);
  const rows = await marketPageVersions(query, listingRunner(db, query, "versions"), total);
  const { rows: shown, nextCursor } = page(rows, query);
  const fingerprint = pageFingerprint(shown, nextCursor, total);
  if (fresh && hit.fingerprint === fingerprint) {
    // The catalog moved but not this page: the same bytes, now known to hold at this generation.
    keepPage(kept, key, fingerprint, catalog, hit.bytes, hit.at);
    return hit.bytes;
  }
  const data = await listedMarketJson(db, shown);
  const meta: ListMeta = { count: data.length, limit: query.limit, offset: query.offset, nextCursor, ...total };
  const bytes = Buffer.from(`{"data":[${data.join(",")}],"meta":${JSON.stringify(meta)}}`, "utf8");
  keepPage(kept, key, fingerprint, catalog, bytes, now);
  return bytes;
}

/** Markets of the given events, by 24h volume; with includeClosed=false only open ones. */
export async function marketsOfEvents(db: Db, eventIds: string[], includeClosed: boolean): Promise<Map<string, MarketPublic[]>> {
  const byEvent = new Map<string, MarketPublic[]>();
  if (eventIds.length === 0) return byEvent;
  const rows = await db
    .select(marketColumns)
    .from(markets)
    .innerJoin(marketQuotes, quoteOfMarket)
    .innerJoin(marketRanks, eq(marketRanks.id, markets.id))
    .where(and(inArray(markets.eventId, eventIds), includeClosed ? undefined : eq(markets.closed, false)))
    .orderBy(...rankOrder(marketRanks));
  for (const row of rows) {
    const list = byEvent.get(row.eventId) ?? [];
    list.push(toMarketPublic(row));
    byEvent.set(row.eventId, list);
  }
  return byEvent;
}

/** GET /v0/events: events with their nested markets, same filters, orders, tiers and paging as markets. */
export async function searchEvents(db: Db, query: ListQuery): Promise<ListResult<EventPublic>> {
  const key = sortKey(events, sortOf(query));
  const order = sql.join(orderOf(events, key), sql`, `);
  // Each tier's ids and cursor keys in the list's order; the events' columns and quotes follow by id.
  const tierStatement = (tier: TierRead, limit: number, offset: number, few: Few, search: Search | undefined) =>
    tier === "both"
      ? sql`select ${events.id}::text as id, ${key.cursorValue} as "cursorKey", page.tier::int as tier from (${pageIds(events, query, search, tier, limit, offset, few)}) as page
      join ${events} on ${events.id} = page.id order by page.tier, ${order}`
      : sql`select ${events.id}::text as id, ${key.cursorValue} as "cursorKey" from (${pageIds(events, query, search, tier, limit, offset, few)}) as page
      join ${events} on ${events.id} = page.id order by ${order}`;
  const total = await countMatches(db, events, query);
  const ranked = await pageRows<Ranked>(query, events, tierStatement, (upTo, search) => tierCount(events, query, search, upTo), runOn(db), total);
  const { rows: shown, nextCursor } = page(ranked, query);
  const ids = shown.map((r) => r.id);
  const [rows, nested] = await Promise.all([
    ids.length === 0
      ? Promise.resolve([])
      : db.select({ event: eventColumns, id: events.id }).from(events).innerJoin(eventQuotes, quoteOfEvent).where(inArray(events.id, ids)),
    marketsOfEvents(db, ids, query.closed),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r.event]));
  const data = shown.flatMap((r) => {
    const event = byId.get(r.id);
    return event === undefined ? [] : [toEventPublic(event, nested.get(r.id) ?? [])];
  });
  return { data, meta: { count: data.length, limit: query.limit, offset: query.offset, nextCursor, ...total } };
}
