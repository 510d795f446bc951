import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { resultRows, type Db } from "@/lib/db";
import { TOTAL_EXACT_LIMIT } from "./shapes";

/**
 * meta.total / meta.totalEstimate of the catalog lists. The rule (docs/catalog.md):
 * 1. ask the planner for its row estimate of the filters (EXPLAIN, no rows read), and, for a search
 *    whose last word is a prefix, of the same filters with every word whole (`whole`): PostgreSQL 15
 *    estimates any prefix (`'price':*`) at ~2 % of rows, where a whole word is estimated from
 *    ANALYZE's element frequencies (`'price'`: 247,989 of 1M), and a prefix matches at least the rows
 *    of its whole word, so the larger estimate is taken;
 * 2. if it is at most ESTIMATE_GATE, count the matching rows exactly, stopping at `exactLimit` + 1
 *    (TOTAL_EXACT_LIMIT; a search's, SEARCH_EXACT_LIMIT);
 * 3. at most `exactLimit` rows: `total` is exact; otherwise `totalEstimate` is the planner's
 *    estimate (never below `exactLimit` + 1, which the count just proved).
 * So a total never costs more than reading `exactLimit` + 1 rows. Totals depend only on the
 * filters (not on sort, cursor or offset) and are cached per filter set for CACHE_MS; every write
 * through lib/catalog/store.ts in this process clears the cache.
 */
export interface ListTotal {
  total: number | null;
  totalEstimate: number | null;
}

/** Above this planner estimate, counting even 10,001 rows may mean a large bitmap: estimate only. */
const ESTIMATE_GATE = 100_000;
const CACHE_MS = 15_000;
const MAX_CACHED = 1_000;

/** `catalog`: the catalog generation (lib/catalog/generation.ts) read before the total was computed, when the caller knew it. */
const cache = new Map<string, { at: number; value: ListTotal; catalog: string | undefined }>();
/** Bumped by every write: a total computed across a write is answered but not cached. */
let generation = 0;

/** Called by every catalog write of this process: totals computed before it are stale. */
export function catalogChanged(): void {
  generation += 1;
  cache.clear();
}


/**
 * The statement whose plan estimates the rows of `table` matching `where` (no row read): an EXPLAIN of
 * `select 1 … limit 1`, read by `planRows`. The `limit 1` keeps the plan's cost under PostgreSQL's
 * JIT threshold: EXPLAIN without ANALYZE still initialises the plan, and a sequential scan's cost
 * (a frequent word's, or a whole table's: ~112,500 at 1M) passed `jit_above_cost`, so the estimate
 * JIT-compiled its filter: the first time on a connection that loads LLVM (69-345 ms at 1M), then
 * ~1-8 ms (docs/performance.md, "Search at 1M, fifth pass").
 */
export function estimateStatement(table: SQL, where: SQL | undefined): SQL {
  return sql`explain (format json) select 1 from ${table}${where === undefined ? sql`` : sql` where ${where}`} limit 1`;
}

type PlanNode = { "Node Type"?: string; "Plan Rows"?: number; Plans?: PlanNode[] };

/** The planner's row estimate from the result of an `explain (format json)` (`estimateStatement`: the rows under its limit). */
export function planRows(result: unknown): number {
  const cell = resultRows(result)[0]?.["QUERY PLAN"];
  const plan = (typeof cell === "string" ? JSON.parse(cell) : cell) as Array<{ Plan?: PlanNode }> | undefined;
  const top = plan?.[0]?.Plan;
  const node = top?.["Node Type"] === "Limit" ? top.Plans?.[0] : top;
  const rows = node?.["Plan Rows"];
  return typeof rows === "number" && Number.isFinite(rows) ? Math.round(rows) : 0;
}

async function computeTotal(db: Db, table: SQL, where: SQL | undefined, whole: SQL | undefined, exactLimit: number): Promise<ListTotal> {
  const filter = where === undefined ? sql`` : sql` where ${where}`;
  const estimated = async (conditions: SQL | undefined) => planRows(await db.execute(estimateStatement(table, conditions)));
  const planned = await estimated(where);
  const estimate = whole === undefined ? planned : Math.max(planned, await estimated(whole));
  if (estimate > ESTIMATE_GATE) return { total: null, totalEstimate: estimate };
  const counted = resultRows(
    await db.execute(
      sql`select count(*)::int as n from (select 1 from ${table}${filter} limit ${exactLimit + 1}) as matches`,
    ),
  )[0]?.n;
  const n = Number(counted ?? 0);
  if (n <= exactLimit) return { total: n, totalEstimate: null };
  return { total: null, totalEstimate: Math.max(estimate, exactLimit + 1) };
}

/** How one filter set's total is taken, besides its WHERE (see `listTotal`). */
export interface TotalOptions {
  /** The catalog generation the caller read before asking, when it knew it. */
  catalog?: string;
  /** The same WHERE with a search's prefixes read as whole words, when it has any. */
  whole?: () => Promise<SQL | undefined>;
  /** Counted exactly up to this many rows (TOTAL_EXACT_LIMIT unless given). */
  exactLimit?: number;
}

/**
 * The total of one filter set (`cacheKey` identifies it; `where` builds its WHERE when not cached),
 * from the cache when fresh. With `catalog`, only a total computed after a read of that same
 * catalog generation is taken: a write by any process or instance since makes it stale
 * (GET /v0/markets keeps whole pages by the generation, so a total in them must hold at it too).
 */
export async function listTotal(
  db: Db,
  table: SQL,
  where: () => Promise<SQL | undefined>,
  cacheKey: string,
  { catalog, whole, exactLimit = TOTAL_EXACT_LIMIT }: TotalOptions = {},
): Promise<ListTotal> {
  const now = Date.now();
  const hit = cache.get(cacheKey);
  if (hit !== undefined && now - hit.at < CACHE_MS && (catalog === undefined || hit.catalog === catalog)) return hit.value;
  const started = generation;
  const value = await computeTotal(db, table, await where(), await whole?.(), exactLimit);
  if (started !== generation) return value;
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(cacheKey, { at: now, value, catalog });
  return value;
}
