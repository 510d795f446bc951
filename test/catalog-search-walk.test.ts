import { beforeAll, describe, expect, it } from "vitest";
import { GET as listMarkets } from "@/app/v0/markets/route";
import { listSorts } from "@/lib/catalog/cursor";
import { marketListStatement, marketSearchWalkStatement, SEARCH_WALK_MIN_MATCHES } from "@/lib/catalog/search";
import type { ListQuery } from "@/lib/catalog/shapes";
import { getDb } from "@/lib/db";
import { clearCatalog, makeEvent, seedCatalog } from "./helpers/catalog";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

/**
 * A text search with many matches is read by walking the list order (lib/catalog/search.ts,
 * `marketPage`). Its pages must be exactly the pages of the statement that reads every match and
 * sorts them, for every sort, filter and cursor position.
 */

const MATCHING = SEARCH_WALK_MIN_MATCHES + 400;
let key = "";

function query(overrides: Partial<ListQuery>): ListQuery {
  return { limit: 50, offset: 0, closed: false, category: undefined, exchange: undefined, cursor: undefined, query: "senate", ...overrides };
}

const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);

beforeAll(async () => {
  ({ key } = await makeKey("free"));
  await clearCatalog();
  // Half the markets say "Senate" (in the title, or only in the slug), spread over the whole
  // volume range with ties; the rest never match. Two venues, two categories, some closed.
  const items = [];
  for (let e = 0; e < (MATCHING * 2) / 40; e += 1) {
    items.push(
      makeEvent(
        { venue: e % 3 === 0 ? "kalshi" : "polymarket", category: e % 2 === 0 ? "Politics" : "Sports" },
        Array.from({ length: 40 }, (_, i) => {
          const n = e * 40 + i;
          const senate = n % 2 === 0;
          return {
            title: senate && n % 4 === 0 ? `Will the Senate pass bill ${n}?` : `Will the House pass bill ${n}?`,
            slug: senate && n % 4 !== 0 ? `senate-bill-${n}` : `house-bill-${n}`,
            volume24h: (n * 7919) % 1000,
            liquidity: n % 5 === 0 ? null : (n * 31) % 500,
            closed: n % 17 === 0,
            resolutionDate: n % 7 === 0 ? null : new Date(Date.UTC(2027, n % 12, 1 + (n % 27))),
            outcomes: [
              { outcomeId: `walk-${n}-y`, label: "Yes", price: 0.5, priceChange24h: ((n % 9) - 4) / 100 },
              { outcomeId: `walk-${n}-n`, label: "No", price: 0.5, priceChange24h: -((n % 9) - 4) / 100 },
            ],
          };
        }),
      ),
    );
  }
  await seedCatalog(items);
}, 120_000);

describe("text search by walking the list order", () => {
  it("gives the same pages as reading and sorting every match, for every sort and filter", async () => {
    const db = await getDb();
    for (const sort of listSorts) {
      for (const filters of [{}, { exchange: "kalshi" }, { category: "Politics" as const }, { closed: true }, { offset: 120, limit: 10 }]) {
        const q = query({ sort, ...filters });
        const walked = await marketSearchWalkStatement(db, q, "senate", 20_000);
        const sorted = await marketListStatement(db, q);
        expect(walked.length, `${sort} ${JSON.stringify(filters)}`).toBe(q.limit + 1);
        expect(ids(walked), `${sort} ${JSON.stringify(filters)}`).toEqual(ids(sorted));
        expect(walked).toEqual(sorted);
      }
    }
  });

  it("comes back short when the walk's bound ends before the page does (the caller then reads every match)", async () => {
    const db = await getDb();
    // 60 rows in list order hold about 30 matches: not the 51 a page of 50 needs.
    const short = await marketSearchWalkStatement(db, query({}), "senate", 60);
    expect(short.length).toBeLessThan(51);
    expect(short.length).toBeGreaterThan(0);
    // What it did find is the head of the true page, in order.
    expect(ids(short)).toEqual(ids(await marketListStatement(db, query({}))).slice(0, short.length));
  });

  it("pages /v0/markets?query=senate by cursor exactly like the full statement, to the last page", async () => {
    const db = await getDb();
    for (const sort of ["volume24h", "resolutionDate"] as const) {
      const expected = ids(await marketListStatement(db, query({ sort, limit: 100_000 })));
      expect(expected.length).toBeGreaterThanOrEqual(SEARCH_WALK_MIN_MATCHES);
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 100; page += 1) {
        const res = await callRoute(listMarkets, {
          path: `/v0/markets?query=Senate&sort=${sort}&limit=100${cursor === null ? "" : `&cursor=${cursor}`}`,
          key,
        });
        expect(res.status).toBe(200);
        const body = res.body as { data: Array<{ marketId: string }>; meta: { nextCursor: string | null } };
        seen.push(...body.data.map((m) => m.marketId));
        cursor = body.meta.nextCursor;
        if (cursor === null) break;
      }
      expect(seen).toEqual(expected);
    }
  });
});
