import { beforeAll, describe, expect, it } from "vitest";
import { GET as listEvents } from "@/app/v0/events/route";
import { GET as listMarkets } from "@/app/v0/markets/route";
import { upsertCatalog } from "@/lib/catalog/store";
import { getDb } from "@/lib/db";
import { clearCatalog, makeEvent } from "./helpers/catalog";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

// Cursor paging walks an index on (volume24h, id): rows inserted or updated between pages never
// shift the pages, unlike offset paging.
let key = "";
type Page = { data: Array<{ marketId?: string; eventId?: string; volume24h: number }>; meta: { nextCursor: string | null } };

async function walk(path: string, handler: typeof listMarkets, between: (page: number) => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page += 1) {
    const res = await callRoute(handler, { path: `${path}&limit=17${cursor === null ? "" : `&cursor=${cursor}`}`, key });
    expect(res.status).toBe(200);
    const body = res.body as Page;
    seen.push(...body.data.map((r) => r.marketId ?? r.eventId ?? ""));
    cursor = body.meta.nextCursor;
    if (cursor === null) return seen;
    await between(page);
  }
  throw new Error("walk did not end");
}

describe("cursor paging under concurrent upserts", () => {
  const original = Array.from({ length: 40 }, (_, i) =>
    makeEvent({ venue: "mock" }, [{ volume24h: 1000 + (i % 7) }, { volume24h: 500 + (i % 5) }, { volume24h: i }]),
  );
  const originalMarkets = original.flatMap((e) => e.markets.map((m) => m.id));
  const originalEvents = original.map((e) => e.event.id);

  beforeAll(async () => {
    ({ key } = await makeKey("pro"));
    await clearCatalog();
    await upsertCatalog(await getDb(), original);
  });

  it("a market walk returns every stored market exactly once while new markets land on every page", async () => {
    const db = await getDb();
    let inserted = 0;
    const seen = await walk("/v0/markets?exchange=mock", listMarkets, async (page) => {
      // New markets ahead of, inside and behind the cursor, plus price updates of existing rows.
      const fresh = makeEvent({ venue: "mock" }, [{ volume24h: 5000 + page }, { volume24h: 700 }, { volume24h: 0.5 }]);
      inserted += fresh.markets.length;
      const refreshed = original.slice(page, page + 3).map((e) => ({
        ...e,
        markets: e.markets.map((m) => ({ ...m, outcomes: m.outcomes.map((o) => ({ ...o, price: 0.11 })) })),
      }));
      await Promise.all([upsertCatalog(db, [fresh]), upsertCatalog(db, refreshed)]);
    });
    expect(inserted).toBeGreaterThan(0);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of originalMarkets) expect(seen).toContain(id);
  });

  it("offset paging under the same writes repeats rows (why the cursor exists)", async () => {
    const db = await getDb();
    const seen: string[] = [];
    for (let offset = 0; offset < 200; offset += 17) {
      const res = await callRoute(listMarkets, { path: `/v0/markets?exchange=mock&limit=17&offset=${offset}`, key });
      const body = res.body as Page;
      seen.push(...body.data.map((r) => r.marketId ?? ""));
      if (body.data.length < 17) break;
      await upsertCatalog(db, [makeEvent({ venue: "mock" }, [{ volume24h: 9000 + offset }])]);
    }
    expect(new Set(seen).size).toBeLessThan(seen.length);
  });

  it("an event walk returns every stored event exactly once while events are added", async () => {
    const db = await getDb();
    const seen = await walk("/v0/events?exchange=mock", listEvents, async (page) => {
      await upsertCatalog(db, [makeEvent({ venue: "mock" }, [{ volume24h: 100_000 + page }])]);
    });
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of originalEvents) expect(seen).toContain(id);
  });
});
