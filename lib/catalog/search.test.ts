import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, resultRows } from "@/lib/db";
import { clearCatalog, makeEvent, seedCatalog } from "@/test/helpers/catalog";
import { parseQuery } from "@/lib/input";
import { marketPageRows, marketTotal, searchMarkets } from "./list";
import { SEARCH_EXACT_LIMIT, listMarketsQuery } from "./shapes";
import { estimateStatement, planRows } from "./totals";

// query= on both stores (BRIER_TEST_DATABASE picks PGlite or PostgreSQL): words as the database
// parses them, title matches first, each tier in the list's order, paging across the tiers.

const list = async (qs: string) => searchMarkets(await getDb(), parseQuery(listMarketsQuery, new URLSearchParams(qs)));
const titles = async (qs: string) => (await list(qs)).data.map((m) => m.title);

/** The titles of `qs` walked page by page with each page's cursor, until the last page or `upTo` titles. */
async function walkTitles(qs: string, upTo = Number.POSITIVE_INFINITY): Promise<string[]> {
  const walked: string[] = [];
  let cursor: string | null = "";
  for (let pages = 0; cursor !== null && pages < 10 && walked.length < upTo; pages += 1) {
    const result = await list(`${qs}${cursor === "" ? "" : `&cursor=${encodeURIComponent(cursor)}`}`);
    walked.push(...result.data.map((m) => m.title));
    cursor = result.meta.nextCursor;
  }
  return walked;
}

describe("query=: words, tiers and paging", () => {
  beforeAll(async () => {
    await clearCatalog();
    const market = (title: string, slug: string, volume24h: number, liquidity: number) => ({ title, slug, volume24h, liquidity });
    await seedCatalog([
      makeEvent({ venue: "polymarket", title: "Search event" }, [
        market("Will the Senate pass the bill?", "senate-bill", 10, 30),
        market("Senators vote on a 2.5% rate", "senators-vote", 50, 20),
        market("Who leads the race?", "senate-race-leader", 100, 40),
        market("Fed holds in March", "fed-holds", 5, 1),
        market("Unrelated market", "unrelated", 1000, 2),
        market("Will the 100% turnout happen?", "turnout", 1, 3),
      ]),
    ]);
  });

  it.each([
    // A whole word, any case; a title match ranks above a slug-only match of higher volume.
    ["query=senate", ["Will the Senate pass the bill?", "Who leads the race?"]],
    ["query=SENATE", ["Will the Senate pass the bill?", "Who leads the race?"]],
    // Every word is a prefix: title matches by volume, then the slug-only match.
    ["query=sen", ["Senators vote on a 2.5% rate", "Will the Senate pass the bill?", "Who leads the race?"]],
    // The same tiers in another order (most liquid first within each tier).
    ["query=sen&sort=liquidity", ["Will the Senate pass the bill?", "Senators vote on a 2.5% rate", "Who leads the race?"]],
    // Several words: all of them.
    ["query=senate%20bill", ["Will the Senate pass the bill?"]],
    ["query=bill%20senate", ["Will the Senate pass the bill?"]],
    ["query=senate%20vote", []],
    // Only the last word typed is a prefix; the words before it are whole words.
    ["query=bill%20sen", ["Will the Senate pass the bill?"]],
    ["query=sen%20bill", []],
    ["query=senators%20vo", ["Senators vote on a 2.5% rate"]],
    // A word typed twice was typed whole: "sen ... sen" does not find "Senate".
    ["query=sen%20pass%20sen", []],
    ["query=pass%20senate%20pass", ["Will the Senate pass the bill?"]],
    // Words as the database splits titles: a decimal stays one word, a hyphen joins two.
    ["query=2.5", ["Senators vote on a 2.5% rate"]],
    ["query=fed-hold", ["Fed holds in March"]],
    ["query=race%20leader", ["Who leads the race?"]],
    // No letter or digit: a literal substring of title, then slug.
    ["query=%25", ["Senators vote on a 2.5% rate", "Will the 100% turnout happen?"]],
    ["query=nothing", []],
  ])("%s -> %j", async (qs, expected) => {
    expect(await titles(qs)).toEqual(expected);
  });

  it("counts both tiers in meta.total", async () => {
    expect((await list("query=sen")).meta).toMatchObject({ total: 3, totalEstimate: null });
  });

  it("walks both tiers with cursors, one row a page, as one list", async () => {
    const whole = await titles("query=sen");
    const walked: string[] = [];
    let cursor: string | null = "";
    for (let pages = 0; cursor !== null && pages < 10; pages += 1) {
      const result = await list(`query=sen&limit=1${cursor === "" ? "" : `&cursor=${encodeURIComponent(cursor)}`}`);
      walked.push(...result.data.map((m) => m.title));
      cursor = result.meta.nextCursor;
    }
    expect(walked).toEqual(whole);
    expect(cursor).toBeNull();
  });

  it.each(["liquidity", "resolutionDate", "change24h", "newest"])("walks both tiers with cursors in sort=%s (either direction) as one list", async (sort) => {
    const whole = await titles(`query=sen&sort=${sort}`);
    expect(whole).toHaveLength(3);
    // The slug-only match lists after the title matches in every order.
    expect(whole.at(-1)).toBe("Who leads the race?");
    for (const limit of [1, 2]) expect(await walkTitles(`query=sen&sort=${sort}&limit=${limit}`)).toEqual(whole);
  });

  it("reads a search with few matches, both tiers, in one statement", async () => {
    const db = await getDb();
    const query = parseQuery(listMarketsQuery, new URLSearchParams("query=sen"));
    const statements: string[] = [];
    const rows = await marketPageRows(query, async (statement) => {
      const text = new PgDialect().sqlToQuery(statement).sql;
      if (!text.startsWith("explain") && !text.startsWith("select count(*)")) statements.push(text);
      return resultRows<Record<string, unknown>>(await db.execute(statement));
    }, await marketTotal(db, query));
    expect(statements).toHaveLength(1);
    expect(rows.map((r) => [r.title, r.tier])).toEqual([
      ["Senators vote on a 2.5% rate", 1],
      ["Will the Senate pass the bill?", 1],
      ["Who leads the race?", 2],
    ]);
  });

  it.each([
    ["query=sen&offset=1&limit=5", ["Will the Senate pass the bill?", "Who leads the race?"]],
    ["query=sen&offset=2&limit=1", ["Who leads the race?"]],
    ["query=sen&offset=3", []],
  ])("offsets run on across tiers: %s -> %j", async (qs, expected) => {
    expect(await titles(qs)).toEqual(expected);
  });
});

describe("query=: the plan follows the word's frequency", () => {
  beforeAll(async () => {
    await clearCatalog();
    // 5,000 open markets: "common" in three titles of five (more than a search reads whole), "rarity" in two;
    // half of them Politics (even events), "ballot" in a tenth of those (250: few, but frequent within Politics).
    const items = Array.from({ length: 500 }, (_, e) =>
      makeEvent(
        { venue: "polymarket", title: `Plan event ${e}`, category: e % 2 === 0 ? "Politics" : "Sports" },
        Array.from({ length: 10 }, (_, k) => {
          const i = e * 10 + k;
          const word = i % 5 < 3 ? "common" : "other";
          const extra = `${i === 7 || i === 1207 ? " rarity" : ""}${i % 20 === 3 ? " ballot" : ""}`;
          // Liquidity: unknown on every seventh market (it lists after every known value), ties elsewhere.
          return { title: `Will ${word} thing ${i} happen${extra}?`, slug: `plan-${i}`, volume24h: i, liquidity: i % 7 === 0 ? null : (i * 37) % 101 };
        }),
      ),
    );
    await seedCatalog(items);
    await (await getDb()).execute(sql`vacuum analyze markets, market_ranks`);
  }, 300_000); // 5,000 markets through the upsert: seconds alone, minutes on a loaded 2-core machine

  /** EXPLAIN of the title-match statement the page of `qs` runs first (a plan-picking count before it excepted). */
  async function firstPlan(qs: string): Promise<string> {
    const db = await getDb();
    const plans: string[] = [];
    const query = parseQuery(listMarketsQuery, new URLSearchParams(qs));
    await marketPageRows(query, async (statement) => {
      const rows = resultRows<Record<string, unknown>>(await db.execute(sql`explain ${statement}`));
      plans.push(rows.map((r) => String(Object.values(r)[0])).join("\n"));
      return [];
    }, await marketTotal(db, query));
    return plans.find((plan) => !plan.startsWith("Aggregate") || plan.includes("WindowAgg")) ?? "";
  }

  it("a rare word reads its matches from the GIN index", async () => {
    const plan = await firstPlan("query=rarity");
    expect(plan).toContain("markets_search_vector_idx");
    // Each match's sort key by one probe of market_ranks' primary key (at 1M a join was planned as a scan of it).
    expect(plan).toMatch(/Bitmap Heap Scan on markets[\s\S]*Index Scan using market_ranks_pkey/);
    expect(await titles("query=rarity")).toEqual(["Will common thing 1207 happen rarity?", "Will common thing 7 happen rarity?"]);
  });

  /** The statements the first page of `qs` sends named, and each one's plan with its values (custom) and without (generic). */
  async function namedPlans(qs: string): Promise<Array<{ custom: string; generic: string }>> {
    const db = await getDb();
    const query = parseQuery(listMarketsQuery, new URLSearchParams(qs));
    const named: Array<{ sql: string; params: unknown[] }> = [];
    await marketPageRows(query, async (statement, options) => {
      if (options?.named === true) named.push(new PgDialect().sqlToQuery(statement));
      return resultRows<Record<string, unknown>>(await db.execute(statement));
    }, await marketTotal(db, query));
    const literal = (value: unknown) => (typeof value === "number" ? String(value) : `'${String(value).replaceAll("'", "''")}'`);
    const plans: Array<{ custom: string; generic: string }> = [];
    for (const statement of named) {
      const args = statement.params.length === 0 ? "" : `(${statement.params.map(literal).join(", ")})`;
      const explain = async (mode: string) =>
        db.transaction(async (tx) => {
          await tx.execute(sql.raw(`set local plan_cache_mode = ${mode}`));
          await tx.execute(sql.raw(`prepare search_named as ${statement.sql}`));
          const rows = resultRows<Record<string, unknown>>(await tx.execute(sql.raw(`explain (costs off) execute search_named${args}`)));
          await tx.execute(sql`deallocate search_named`);
          return rows.map((r) => String(Object.values(r)[0])).join("\n");
        });
      plans.push({ custom: await explain("force_custom_plan"), generic: await explain("force_generic_plan") });
    }
    return plans;
  }

  it("a rare word's statement is sent named and keeps its plan as a generic plan", async () => {
    const plans = await namedPlans("query=rarity&limit=1");
    expect(plans).toHaveLength(1);
    // The plan PostgreSQL keeps for a named statement once it stops planning per call: no value known.
    expect(plans[0]?.generic).toMatch(/Bitmap Heap Scan on markets[\s\S]*Index Scan using market_ranks_pkey/);
    expect(plans[0]?.generic).not.toMatch(/Seq Scan on market_ranks|Hash Join/);
  });

  it("a frequent word's walk is sent named with its page size written in, and its generic plan is its plan", async () => {
    const plans = await namedPlans("query=common%20thi&limit=3");
    expect(plans).toHaveLength(1);
    // The same nodes with or without the values (a value is a constant in one, `$n` in the other). Without the literal
    // page size, a generic plan took `limit $n` for a tenth of the rows (at 1M a hash join over a scan of market_ranks).
    const shape = (plan: string | undefined) => plan?.replace(/'(?:[^']|'')*'::\w+|\$\d+/g, "?");
    expect(shape(plans[0]?.generic)).toBe(shape(plans[0]?.custom));
    expect(plans[0]?.generic).toMatch(/Limit\n[\s\S]*Index Only Scan using market_ranks_rank_idx/);
    // An offset keeps the statement unnamed (planned with its values on every call).
    expect(await namedPlans("query=common%20thi&limit=3&offset=3")).toHaveLength(0);
  });

  it("rare whole words with a frequent last prefix read the whole words from the GIN index and test the prefix on their rows", async () => {
    const plan = await firstPlan("query=rarity%20w");
    expect(plan).toContain("markets_search_vector_idx");
    expect(plan).toContain("ts_match_vq");
    expect(await titles("query=rarity%20w")).toEqual(["Will common thing 1207 happen rarity?", "Will common thing 7 happen rarity?"]);
    expect(await titles("query=rarity%20ha")).toEqual(["Will common thing 1207 happen rarity?", "Will common thing 7 happen rarity?"]);
  });

  it.each(["common%20rarity%20common", "rarity%20common%20rarity", "common%20rarity%20w"])(
    "several words read from the GIN index are one key each, the rarest first, whatever the order typed (query=%s)",
    async (words) => {
      const plan = await firstPlan(`query=${words}`);
      // "rarity" (2 rows, not among ANALYZE's common elements) drives the scan; "common" (3,000) follows.
      expect(plan).toMatch(/Index Cond: \(\(search_vector @@ '''rarity'''::tsquery\) AND \(search_vector @@ '''common'''::tsquery\)\)/);
      expect(await titles(`query=${words}`)).toEqual(["Will common thing 1207 happen rarity?", "Will common thing 7 happen rarity?"]);
    },
  );

  it("the search GIN indexes keep a pending list of 64 kB at most (every search reads all of it: drizzle/0026)", async () => {
    const rows = resultRows<{ relname: string; options: string | null }>(
      await (await getDb()).execute(sql`select relname, array_to_string(reloptions, ',') as options from pg_class
        where relname in ('markets_search_vector_idx', 'events_search_vector_idx') order by relname`),
    );
    expect(rows).toEqual([
      { relname: "events_search_vector_idx", options: "gin_pending_list_limit=64" },
      { relname: "markets_search_vector_idx", options: "gin_pending_list_limit=64" },
    ]);
  });

  it("several frequent words walk the list's order without the GIN index", async () => {
    // 3,000 matches: more than a search reads whole, and more than it counts (SEARCH_EXACT_LIMIT): an estimate of at least 2,001.
    const { meta } = await list("query=common%20thi");
    expect(meta.total).toBeNull();
    expect(meta.totalEstimate).toBeGreaterThanOrEqual(SEARCH_EXACT_LIMIT + 1);
    const plan = await firstPlan("query=common%20thi&limit=3");
    expect(plan).not.toContain("markets_search_vector_idx");
    expect(await titles("query=common%20thi&limit=3")).toEqual(["Will common thing 4997 happen?", "Will common thing 4996 happen?", "Will common thing 4995 happen?"]);
  });

  it.each([
    ["liquidity", "market_ranks_liquidity_rank_idx"],
    ["change24h", "market_ranks_change_rank_idx"],
    ["resolutionDate", "market_ranks_resolution_rank_idx"],
    ["newest", "market_ranks_newest_rank_idx"],
  ])("a frequent search in sort=%s walks that order's index, in the order's rows", async (sort, index) => {
    const plan = await firstPlan(`query=common%20thi&sort=${sort}&limit=3`);
    expect(plan).toContain(`using ${index}`);
    // Every order's index carries the vector (drizzle/0027): its walk tests each entry without visiting the table.
    expect(plan).toContain(`Index Only Scan using ${index}`);
    expect(plan).not.toContain("markets_search_vector_idx");
    // The same rows in the same order as the order's definition, walked page by page with cursors.
    const key = {
      liquidity: "coalesce(r.liquidity, '-Infinity'::float8) desc nulls last, r.id desc",
      change24h: "r.abs_change24h desc, r.id desc",
      resolutionDate: "coalesce(r.resolution_date, 'infinity'::timestamptz), r.id",
      newest: "r.first_seen_at desc, r.id desc",
    }[sort];
    const expected = resultRows<{ title: string }>(
      await (await getDb()).execute(
        sql.raw(`select m.title from markets m join market_ranks r on r.id = m.id where not r.closed and m.search_vector @@ 'common:A & thi:*A'::tsquery order by ${key} limit 40`),
      ),
    ).map((r) => r.title);
    expect(await walkTitles(`query=common%20thi&sort=${sort}&limit=8`, 40)).toEqual(expected);
  });

  it("every other order's index carries the search vector and the column their key reads (drizzle/0027)", async () => {
    const rows = resultRows<{ name: string; definition: string }>(
      await (await getDb()).execute(sql`select c.relname as name, pg_get_indexdef(c.oid) as definition from pg_class c
        where c.relname in ('market_ranks_change_rank_idx', 'market_ranks_liquidity_rank_idx', 'market_ranks_resolution_rank_idx', 'market_ranks_newest_rank_idx') order by c.relname`),
    );
    const included = Object.fromEntries(rows.map((r) => [r.name, /INCLUDE \(([^)]*)\)/.exec(r.definition)?.[1] ?? null]));
    expect(included).toEqual({
      market_ranks_change_rank_idx: "search_vector",
      market_ranks_liquidity_rank_idx: "liquidity, search_vector",
      market_ranks_newest_rank_idx: "search_vector",
      market_ranks_resolution_rank_idx: "resolution_date, search_vector",
    });
  });

  it("a listing in sort=liquidity walks its index (the ORDER BY says nulls first, as the index does)", async () => {
    const db = await getDb();
    const query = parseQuery(listMarketsQuery, new URLSearchParams("sort=liquidity&limit=3"));
    const plans: string[] = [];
    await marketPageRows(query, async (statement) => {
      const rows = resultRows<Record<string, unknown>>(await db.execute(sql`explain ${statement}`));
      plans.push(rows.map((r) => String(Object.values(r)[0])).join("\n"));
      return [];
    });
    expect(plans.join("\n")).toContain("using market_ranks_liquidity_rank_idx");
    expect(plans.join("\n")).not.toMatch(/Seq Scan on market_ranks/);
  });

  it("meta.total's estimate also asks for a prefix search's words whole (the planner estimates any prefix at ~2 % of rows)", async () => {
    const db = await getDb();
    const explained: unknown[][] = [];
    const dialect = new PgDialect();
    const recording = new Proxy(db, {
      get: (target, key, receiver) =>
        key === "execute"
          ? async (statement: Parameters<typeof db.execute>[0]) => {
              const rendered = dialect.sqlToQuery(statement as never);
              if (rendered.sql.startsWith("explain")) explained.push(rendered.params);
              return target.execute(statement);
            }
          : Reflect.get(target, key, receiver),
    });
    // "happen" ends every title: 5,000 matches, under the gate, so counted, past SEARCH_EXACT_LIMIT: an estimate.
    const total = await marketTotal(recording, parseQuery(listMarketsQuery, new URLSearchParams("query=happen")));
    expect(total.total).toBeNull();
    expect(total.totalEstimate).toBeGreaterThanOrEqual(SEARCH_EXACT_LIMIT + 1);
    const words = explained.flat().filter((value) => typeof value === "string" && value.includes("happen"));
    expect(words).toContain("'happen':*");
    expect(words).toContain("'happen'");
  });

  it.each([
    ["a frequent word", sql`search_vector @@ 'happen'::tsquery`],
    ["a prefix", sql`search_vector @@ 'happen:*'::tsquery`],
    ["the open rows", sql`closed = false`],
    ["every row", undefined],
  ])("a planner estimate (%s) reads the rows under its limit 1: the plain EXPLAIN's estimate", async (_, where) => {
    // The `limit 1` keeps the plan under PostgreSQL's JIT threshold (lib/catalog/totals.ts `estimateStatement`).
    const db = await getDb();
    const plain = planRows(await db.execute(sql`explain (format json) select 1 from markets${where === undefined ? sql`` : sql` where ${where}`}`));
    const estimated = planRows(await db.execute(estimateStatement(sql`markets`, where)));
    expect(plain).toBeGreaterThan(1);
    expect(estimated).toBe(plain);
  });

  it("a frequent word pages by volume", async () => {
    // Its plan is the planner's and depends on the scale: docs/catalog.md has the 1M plans (bench:catalog --plans-only).
    expect(await titles("query=common&limit=2")).toEqual(["Will common thing 4997 happen?", "Will common thing 4996 happen?"]);
  });

  it("a search within a category walks the category's order when its matches are frequent there, and reads the GIN index when rare", async () => {
    // 250 matches of 2,500 Politics rows: a walk meets one every 10 entries (51 x 10 <= WALK_ENTRIES).
    expect((await list("query=ballot&category=Politics")).meta).toMatchObject({ total: 250 });
    expect(await firstPlan("query=ballot&category=Politics")).not.toContain("markets_search_vector_idx");
    expect(await titles("query=ballot&category=Politics&limit=2")).toEqual(["Will other thing 4983 happen ballot?", "Will other thing 4963 happen ballot?"]);
    // 2 matches of 2,500: a walk would pass every entry; the GIN index reads the word's two rows
    // alone (no bitmap of the category's index) and the category is tested on them.
    const rare = await firstPlan("query=rarity&category=Politics");
    expect(rare).toContain("markets_search_vector_idx");
    expect(rare).not.toContain("BitmapAnd");
    expect(rare).toMatch(/Filter: \(matches\.category = /);
    expect(await titles("query=rarity&category=Politics")).toEqual(["Will common thing 1207 happen rarity?", "Will common thing 7 happen rarity?"]);
    expect(await titles("query=ballot&category=Sports")).toEqual([]);
  });

  it("a search within a venue walks the venue's order when its matches are frequent there", async () => {
    // 250 matches of the venue's 5,000 rows: a walk meets one every 20 entries (51 x 20 <= WALK_ENTRIES).
    expect((await list("query=ballot&exchange=polymarket")).meta).toMatchObject({ total: 250 });
    expect(await firstPlan("query=ballot&exchange=polymarket")).not.toContain("markets_search_vector_idx");
    expect(await titles("query=ballot&exchange=polymarket&limit=2")).toEqual(["Will other thing 4983 happen ballot?", "Will other thing 4963 happen ballot?"]);
    expect(await firstPlan("query=rarity&exchange=polymarket")).toContain("markets_search_vector_idx");
    expect(await titles("query=ballot&exchange=kalshi")).toEqual([]);
  });
});
