import { beforeAll, describe, expect, it } from "vitest";
import { GET as getMarket } from "@/app/v0/markets/[id]/route";
import { GET as listEvents } from "@/app/v0/events/route";
import { GET as listMarkets } from "@/app/v0/markets/route";
import { encodeCursor, listSorts, type ListSort } from "@/lib/catalog/cursor";
import { eventListResponse, marketListResponse, TOTAL_EXACT_LIMIT, type MarketPublic } from "@/lib/catalog/shapes";
import { upsertCatalog } from "@/lib/catalog/store";
import { getDb } from "@/lib/db";
import type { StoredOutcome } from "@/lib/db/schema";
import { clearCatalog, makeEvent } from "./helpers/catalog";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

// sort=, meta.total / meta.totalEstimate and prices on the venue's grid, on both list routes.
// (The shared auth suite runs on these routes in test/catalog-routes.test.ts.)

let key = "";
type Row = MarketPublic & { eventId: string; markets?: unknown[] };
type Page = {
  data: Row[];
  meta: { count: number; nextCursor: string | null; total: number | null; totalEstimate: number | null };
};

async function list(handler: typeof listMarkets, query: string): Promise<{ status: number; body: Page & { error?: { parameter?: string } } }> {
  const res = await callRoute(handler, { path: `/v0/list?${query}`, key });
  return res as never;
}

/** Walks every page of `query` with `limit`, returning the ids in order. */
async function walk(handler: typeof listMarkets, query: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 200; page += 1) {
    const res = await list(handler, `${query}&limit=${limit}${cursor === null ? "" : `&cursor=${cursor}`}`);
    expect(res.status).toBe(200);
    ids.push(...res.body.data.map((r) => (handler === listEvents ? r.eventId : r.marketId)));
    cursor = res.body.meta.nextCursor;
    if (cursor === null) {
      // The last page is never empty after a full page: nextCursor was null exactly at the end.
      expect(res.body.data.length).toBeGreaterThan(0);
      return ids;
    }
    expect(res.body.data.length).toBe(limit);
  }
  throw new Error("walk did not end");
}

const binary = (id: string, yes: number, change: number): StoredOutcome[] => [
  { outcomeId: `${id}-y`, label: "Yes", price: yes, priceChange24h: change },
  { outcomeId: `${id}-n`, label: "No", price: 1 - yes, priceChange24h: -change },
];

describe("sort=", () => {
  // Ties on every key (equal volumes, equal moves, equal dates, several unknown liquidities and
  // dates) so the id tie-break and the null handling are exercised by the cursor walks.
  const spec = Array.from({ length: 23 }, (_, i) => ({
    venueMarketId: `sort-${i}`,
    volume24h: [5, 9, 9, 1, 7][i % 5] ?? 0,
    liquidity: i % 4 === 0 ? null : [30, 10, 30, 20][i % 4] ?? 0,
    resolutionDate: i % 3 === 0 ? null : new Date(Date.UTC(2027, i % 2, 1 + (i % 5))),
    outcomes: binary(`sort-${i}`, 0.5, [0.02, -0.3, 0.1, -0.02, 0.3][i % 5] ?? 0),
  }));

  beforeAll(async () => {
    ({ key } = await makeKey("enterprise"));
    await clearCatalog();
    const db = await getDb();
    // One upsert per event, in sequence: first_seen_at (transaction time) increases with the index.
    for (let e = 0; e < spec.length; e += 3) {
      await upsertCatalog(db, [makeEvent({ venue: "polymarket", venueEventId: `sort-ev-${e}` }, spec.slice(e, e + 3))]);
    }
    // A closed market never appears in the default lists, whatever the sort.
    await upsertCatalog(db, [makeEvent({ venue: "kalshi" }, [{ volume24h: 1e9, liquidity: 1e9, closed: true, status: "settled" }])]);
  });

  const byKey: Record<ListSort, (a: Row, b: Row) => number> = {
    volume24h: (a, b) => b.volume24h - a.volume24h,
    change24h: (a, b) =>
      Math.max(...b.outcomes.map((o) => Math.abs(o.priceChange24h))) - Math.max(...a.outcomes.map((o) => Math.abs(o.priceChange24h))),
    liquidity: (a, b) => (b.liquidity ?? -Infinity) - (a.liquidity ?? -Infinity) || 0,
    resolutionDate: (a, b) =>
      (a.resolutionDate === null ? Infinity : Date.parse(a.resolutionDate)) - (b.resolutionDate === null ? Infinity : Date.parse(b.resolutionDate)) || 0,
    newest: (a, b) => Date.parse(b.firstSeenAt) - Date.parse(a.firstSeenAt),
  };

  it.each(listSorts.map((s) => [s]))("sort=%s orders markets by its key, ties by id, and every cursor walk is that order", async (sort) => {
    const res = await list(listMarkets, `sort=${sort}&limit=500`);
    expect(res.status).toBe(200);
    expect(marketListResponse.safeParse(res.body).success).toBe(true);
    const rows = res.body.data;
    expect(rows).toHaveLength(spec.length);
    const tieById = sort === "resolutionDate" ? 1 : -1;
    for (let i = 1; i < rows.length; i += 1) {
      const [a, b] = [rows[i - 1], rows[i]] as [Row, Row];
      const cmp = byKey[sort](a, b);
      expect(cmp, `${sort}: ${a.venueMarketId} before ${b.venueMarketId}`).toBeLessThanOrEqual(0);
      if (cmp === 0) expect(a.marketId > b.marketId ? 1 : -1).toBe(-tieById);
    }
    for (const limit of [1, 4, 7]) expect(await walk(listMarkets, `sort=${sort}`, limit)).toEqual(rows.map((r) => r.marketId));
  });

  it("change24h ranks by the largest absolute move, negative moves included", async () => {
    const rows = (await list(listMarkets, "sort=change24h&limit=500")).body.data;
    const moves = rows.map((r) => Math.abs(r.yes?.priceChange24h ?? 0));
    expect(moves.slice(0, 9)).toEqual(Array(9).fill(0.3));
    expect(moves[9]).toBe(0.1);
    expect(rows.slice(0, 9).some((r) => (r.yes?.priceChange24h ?? 0) < 0)).toBe(true);
  });

  it("unknown liquidity and unknown resolution dates come last", async () => {
    const byLiquidity = (await list(listMarkets, "sort=liquidity&limit=500")).body.data.map((r) => r.liquidity);
    expect(byLiquidity.slice(-6)).toEqual(Array(6).fill(null));
    expect(byLiquidity.slice(0, -6)).not.toContain(null);
    const byDate = (await list(listMarkets, "sort=resolutionDate&limit=500")).body.data.map((r) => r.resolutionDate);
    expect(byDate.slice(-8)).toEqual(Array(8).fill(null));
    expect(byDate[0]).toBe("2027-01-01T00:00:00.000Z");
  });

  it("newest is firstSeenAt, which re-ingestion never changes", async () => {
    const before = (await list(listMarkets, "sort=newest&limit=500")).body.data;
    expect(before[0]?.venueMarketId).toMatch(/^sort-2[0-2]$/);
    const db = await getDb();
    // Re-ingest the oldest event with new prices and volumes: its markets keep their firstSeenAt.
    await upsertCatalog(db, [makeEvent({ venue: "polymarket", venueEventId: "sort-ev-0" }, spec.slice(0, 3).map((m) => ({ ...m, volume24h: 99 })))]);
    const after = (await list(listMarkets, "sort=newest&limit=500")).body.data;
    expect(after.map((r) => [r.marketId, r.firstSeenAt])).toEqual(before.map((r) => [r.marketId, r.firstSeenAt]));
    const reingested = after.find((r) => r.venueMarketId === "sort-0");
    expect(reingested?.volume24h).toBe(99);
    expect(Date.parse(reingested?.updatedAt ?? "")).toBeGreaterThan(Date.parse(reingested?.firstSeenAt ?? ""));
  });

  it.each(listSorts.map((s) => [s]))("sort=%s on /v0/events: every cursor walk is the full order", async (sort) => {
    const res = await list(listEvents, `sort=${sort}&limit=500`);
    expect(res.status).toBe(200);
    expect(eventListResponse.safeParse(res.body).success).toBe(true);
    const ids = res.body.data.map((e) => e.eventId);
    expect(ids).toHaveLength(8);
    expect(await walk(listEvents, `sort=${sort}`, 3)).toEqual(ids);
  });

  it("events rank by their markets' liquidity sum and largest move", async () => {
    const events = (await list(listEvents, "sort=change24h&limit=500")).body.data as unknown as Array<{
      markets: Row[];
    }>;
    const largest = (e: { markets: Row[] }) => Math.max(...e.markets.map((m) => Math.abs(m.yes?.priceChange24h ?? 0)));
    const moves = events.map(largest);
    expect([...moves].sort((a, b) => b - a)).toEqual(moves);
  });

  it.each([
    ["sort=popular", "sort"],
    ["sort=VOLUME24H", "sort"],
    ["sort=volume", "sort"],
    ["sort=newest&sort=liquidity", "sort"],
    [`sort=newest&cursor=${encodeCursor({ sort: "volume24h", key: 1, id: "00000000-0000-5000-8000-000000000000" })}`, "cursor"],
    [`cursor=${encodeCursor({ sort: "liquidity", key: null, id: "00000000-0000-5000-8000-000000000000" })}`, "cursor"],
    [`sort=change24h&cursor=${encodeCursor({ sort: "change24h", key: null, id: "00000000-0000-5000-8000-000000000000" })}`, "cursor"],
    [`sort=newest&cursor=${Buffer.from('["newest","yesterday","00000000-0000-5000-8000-000000000000"]').toString("base64url")}`, "cursor"],
  ])("?%s -> 400 invalid_parameter naming %s", async (qs, parameter) => {
    for (const handler of [listMarkets, listEvents]) {
      const res = await list(handler, qs);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: { code: "invalid_parameter", parameter } });
    }
  });

  it("a cursor issued before sort= existed (two-element form) still pages the default order", async () => {
    const all = (await list(listMarkets, "limit=500")).body.data;
    const third = all[2];
    if (third === undefined) throw new Error("missing row");
    const legacy = Buffer.from(JSON.stringify([third.volume24h, third.marketId])).toString("base64url");
    const res = await list(listMarkets, `limit=500&cursor=${legacy}`);
    expect(res.body.data.map((r) => r.marketId)).toEqual(all.slice(3).map((r) => r.marketId));
  });
});

describe("meta.total and meta.totalEstimate", () => {
  beforeAll(async () => {
    ({ key } = await makeKey("enterprise"));
    await clearCatalog();
    const db = await getDb();
    await upsertCatalog(db, [
      makeEvent({ venue: "kalshi", category: "Economics" }, Array.from({ length: 40 }, () => ({}))),
      makeEvent({ venue: "polymarket", category: "Sports" }, Array.from({ length: 24 }, () => ({}))),
      makeEvent({ venue: "polymarket", category: "Sports" }, [{ closed: true, status: "closed" }]),
    ]);
  });

  it.each([
    ["", 64],
    ["closed=true", 65],
    ["exchange=kalshi", 40],
    ["category=Sports&exchange=polymarket", 24],
    ["query=no-such-market", 0],
  ])("?%s -> exact total %i on every page, whatever the sort", async (qs, total) => {
    for (const sort of ["", "&sort=newest", "&sort=liquidity"]) {
      const first = await list(listMarkets, `${qs}${sort}&limit=50`);
      expect(first.body.meta).toMatchObject({ total, totalEstimate: null });
      if (first.body.meta.nextCursor !== null) {
        const second = await list(listMarkets, `${qs}${sort}&limit=50&cursor=${first.body.meta.nextCursor}`);
        expect(second.body.meta).toMatchObject({ total, totalEstimate: null, count: total - 50, nextCursor: null });
      }
    }
    const events = await list(listEvents, "closed=true");
    expect(events.body.meta).toMatchObject({ total: 3, totalEstimate: null });
  });

  it("a page that ends exactly at the last row has no nextCursor", async () => {
    const res = await list(listMarkets, "exchange=kalshi&limit=40");
    expect(res.body.meta).toMatchObject({ count: 40, nextCursor: null, total: 40 });
  });

  it("a write through the ingestion path is counted by the next request", async () => {
    expect((await list(listMarkets, "exchange=mock")).body.meta.total).toBe(0);
    await upsertCatalog(await getDb(), [makeEvent({ venue: "mock" }, [{}, {}])]);
    expect((await list(listMarkets, "exchange=mock")).body.meta.total).toBe(2);
  });

  it(`more than ${TOTAL_EXACT_LIMIT} matches -> total null and totalEstimate above ${TOTAL_EXACT_LIMIT}`, async () => {
    const db = await getDb();
    const many = Array.from({ length: 21 }, (_, e) =>
      makeEvent({ venue: "limitless", category: "Crypto" }, Array.from({ length: 500 }, (_, i) => ({ volume24h: e * 500 + i }))),
    );
    await upsertCatalog(db, many);
    const res = await list(listMarkets, "exchange=limitless&limit=5");
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBeNull();
    expect(res.body.meta.totalEstimate).toBeGreaterThan(TOTAL_EXACT_LIMIT);
    // The same catalog filtered below the limit is exact again.
    expect((await list(listMarkets, "exchange=kalshi")).body.meta).toMatchObject({ total: 40, totalEstimate: null });
  }, 120_000);
});

describe("prices on the venue's grid", () => {
  beforeAll(async () => {
    ({ key } = await makeKey("enterprise"));
    await clearCatalog();
    await upsertCatalog(await getDb(), [
      // What pmxt-core derives for Kalshi: No = 1 - Yes, its change = -(last - previous).
      makeEvent({ venue: "kalshi" }, [
        {
          venueMarketId: "KXTICK-1",
          outcomes: [
            { outcomeId: "KXTICK-1", label: "Yes", price: 0.85, priceChange24h: 0.85 - 0.8 },
            { outcomeId: "KXTICK-1-NO", label: "No", price: 1 - 0.85, priceChange24h: -(0.85 - 0.8) },
          ],
        },
      ]),
      // Polymarket quotes down to 0.0001 (tail ticks): such prices are kept as they are.
      makeEvent({ venue: "polymarket" }, [
        {
          venueMarketId: "0xtick",
          outcomes: [
            { outcomeId: "1001", label: "Yes", price: 0.0045, priceChange24h: 0.0005 },
            { outcomeId: "1002", label: "No", price: 0.9955, priceChange24h: -0.0005 },
          ],
        },
      ]),
    ]);
  });

  it("Kalshi's derived No side is served as 0.15, the change as ±0.05 (not 1 - 0.85 in floating point)", async () => {
    expect(1 - 0.85).not.toBe(0.15);
    for (const res of [
      await callRoute(getMarket, { path: "/v0/markets/KXTICK-1", key, params: { id: "KXTICK-1" } }),
      { body: { data: (await list(listMarkets, "exchange=kalshi")).body.data[0] } },
    ]) {
      const m = (res.body as { data: MarketPublic }).data;
      expect(m.outcomes.map((o) => [o.price, o.priceChange24h])).toEqual([
        [0.85, 0.05],
        [0.15, -0.05],
      ]);
      expect(m.no).toMatchObject({ price: 0.15, priceChange24h: -0.05 });
    }
  });

  it("prices already on the venue's grid are unchanged", async () => {
    const m = (await list(listMarkets, "exchange=polymarket")).body.data[0];
    expect(m?.outcomes.map((o) => [o.price, o.priceChange24h])).toEqual([
      [0.0045, 0.0005],
      [0.9955, -0.0005],
    ]);
  });
});
