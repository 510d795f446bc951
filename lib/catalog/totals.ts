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
 * 2. if it is at most ESTIMATE_GATE, count the matching rows exactly, stopping at TOTAL_EXACT_LIMIT + 1;
 * 3. at most TOTAL_EXACT_LIMIT rows: `total` is exact; otherwise `totalEstimate` is the planner's
 *    estimate (never below TOTAL_EXACT_LIMIT + 1, which the count just proved).
 * So a total never costs more than reading TOTAL_EXACT_LIMIT + 1 rows. Totals depend only on the
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


/** The planner's row estimate from the result of an `explain (format json)`. */
export function planRows(result: unknown): number {
  const cell = resultRows(result)[0]?.["QUERY PLAN"];
  const plan = (typeof cell === "string" ? JSON.parse(cell) : cell) as Array<{ Plan?: { "Plan Rows"?: number } }> | undefined;
  const rows = plan?.[0]?.Plan?.["Plan Rows"];
  return typeof rows === "number" && Number.isFinite(rows) ? Math.round(rows) : 0;
}

async function computeTotal(db: Db, table: SQL, where: SQL | undefined, whole: SQL | undefined): Promise<ListTotal> {
  const filter = where === undefined ? sql`` : sql` where ${where}`;
  const estimated = async (conditions: SQL) => planRows(await db.execute(sql`explain (format json) select 1 from ${table} where ${conditions}`));
  const planned = where === undefined ? planRows(await db.execute(sql`explain (format json) select 1 from ${table}`)) : await estimated(where);
  const estimate = whole === undefined ? planned : Math.max(planned, await estimated(whole));
  if (estimate > ESTIMATE_GATE) return { total: null, totalEstimate: estimate };
  const counted = resultRows(
    await db.execute(
      sql`select count(*)::int as n from (select 1 from ${table}${filter} limit ${TOTAL_EXACT_LIMIT + 1}) as matches`,
    ),
  )[0]?.n;
  const n = Number(counted ?? 0);
  if (n <= TOTAL_EXACT_LIMIT) return { total: n, totalEstimate: null };
  return { total: null, totalEstimate: Math.max(estimate, TOTAL_EXACT_LIMIT + 1) };
}

/**
 * The total of one filter set (`cacheKey` identifies it; `where` builds its WHERE when not cached,
 * `whole` the same WHERE with a search's prefixes read as whole words, when it has any),
 * from the cache when fresh. With `catalog`, the catalog generation the caller read before asking,
 * only a total computed after a read of that same generation is taken: a write by any process or
 * instance since makes it stale (GET /v0/markets keeps whole pages by the generation, so a total in
 * them must hold at it too).
 */
export async function listTotal(
  db: Db,
  table: SQL,
  where: () => Promise<SQL | undefined>,
  cacheKey: string,
  catalog?: string,
  whole?: () => Promise<SQL | undefined>,
): Promise<ListTotal> {
  const now = Date.now();
  const hit = cache.get(cacheKey);
  if (hit !== undefined && now - hit.at < CACHE_MS && (catalog === undefined || hit.catalog === catalog)) return hit.value;
  const started = generation;
  const value = await computeTotal(db, table, await where(), await whole?.());
  if (started !== generation) return value;
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(cacheKey, { at: now, value, catalog });
  return value;
}
