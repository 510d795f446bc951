import { beforeAll, describe, expect, it } from "vitest";
import { GET as getMarket } from "@/app/v0/markets/[id]/route";
import { GET as listMarkets } from "@/app/v0/markets/route";
import { GET as openapi } from "@/app/v0/openapi.json/route";
import { GET as listResolutions } from "@/app/v0/resolutions/route";
import { marketListResponse, marketPublic } from "@/lib/catalog/shapes";
import { getDb } from "@/lib/db";
import { resolutionsResponse } from "@/lib/outcomes/list";
import { recordResolutions } from "@/lib/outcomes/store";
import type { ResolutionRecord } from "@/lib/outcomes/types";
import { getTickStores } from "@/lib/ticks";
import { makeEvent, seedCatalog } from "./helpers/catalog";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

/*
 * The outcomes on the API: `resolution` on market answers (joined from PostgreSQL), GET
 * /v0/resolutions (every change from ClickHouse, paged in order), and the OpenAPI document.
 */

let key: string;
const settledId = "KX-SETTLED";
const openId = "KX-OPEN";

beforeAll(async () => {
  ({ key } = await makeKey("free"));
  await seedCatalog([
    makeEvent({ venue: "kalshi" }, [
      { venueMarketId: settledId, closed: true, status: "finalized", outcomes: [{ outcomeId: settledId, label: "Yes", price: 0.99, priceChange24h: 0 }, { outcomeId: `${settledId}-NO`, label: "No", price: 0.01, priceChange24h: 0 }] },
      { venueMarketId: openId, outcomes: [{ outcomeId: openId, label: "Yes", price: 0.4, priceChange24h: 0 }, { outcomeId: `${openId}-NO`, label: "No", price: 0.6, priceChange24h: 0 }] },
    ]),
  ]);
  const base = { venue: "kalshi", venueMarketId: settledId, market: settledId, outcomeIds: [settledId, `${settledId}-NO`], resolutionSource: null, closedAt: new Date("2026-11-01T12:00:00Z") };
  const records: ResolutionRecord[] = [
    { ...base, state: "determined", venueState: "determined", winningOutcomeId: settledId, settlementValue: 1, venueTime: new Date("2026-11-01T13:00:00Z"), receivedAt: new Date("2026-11-01T13:00:01Z"), source: "push", raw: "{}" },
    { ...base, state: "settled", venueState: "finalized", winningOutcomeId: settledId, settlementValue: 1, venueTime: new Date("2026-11-01T14:00:00Z"), receivedAt: new Date("2026-11-01T14:00:01Z"), source: "rest", raw: "{}" },
  ];
  await recordResolutions(await getDb(), (await getTickStores()).writer, records);
});

describe("resolution on market answers", () => {
  it("joins the current outcome into GET /v0/markets/{id}, and says what the catalog knows of a market without one", async () => {
    const settled = await callRoute(getMarket, { path: `/v0/markets/${settledId}`, key, params: { id: settledId } });
    expect(settled.status, settled.text).toBe(200);
    const market = marketPublic.parse((settled.body as { data: unknown }).data);
    expect(market.resolution).toEqual({
      state: "settled",
      winningOutcomeId: settledId,
      settlementValue: 1,
      closedAt: "2026-11-01T12:00:00.000Z",
      determinedAt: "2026-11-01T13:00:00.000Z",
      settledAt: "2026-11-01T14:00:00.000Z",
      venueState: "finalized",
      resolutionSource: null,
      learnedBy: "rest",
      synthetic: false,
      updatedAt: "2026-11-01T14:00:01.000Z",
    });
    const open = marketPublic.parse(((await callRoute(getMarket, { path: `/v0/markets/${openId}`, key, params: { id: openId } })).body as { data: unknown }).data);
    expect(open.resolution).toMatchObject({ state: "open", winningOutcomeId: null, learnedBy: "catalog", updatedAt: null });
  });

  it("adds it to every listed market too", async () => {
    const res = await callRoute(listMarkets, { path: "/v0/markets?exchange=kalshi&closed=true", key });
    expect(res.status, res.text).toBe(200);
    const list = marketListResponse.parse(res.body);
    expect(list.data.find((m) => m.venueMarketId === settledId)?.resolution.state).toBe("settled");
  });
});

describe("GET /v0/resolutions", () => {
  it("lists every change in the order Brier learned them, paged by cursor", async () => {
    const first = await callRoute(listResolutions, { path: "/v0/resolutions?venue=kalshi&limit=1", key });
    expect(first.status, first.text).toBe(200);
    const page1 = resolutionsResponse.parse(first.body);
    expect(page1.data.map((c) => [c.state, c.learnedBy])).toEqual([["determined", "push"]]);
    expect(page1.nextCursor).not.toBeNull();
    const second = resolutionsResponse.parse((await callRoute(listResolutions, { path: `/v0/resolutions?venue=kalshi&limit=1&cursor=${page1.nextCursor}`, key })).body);
    expect(second.data.map((c) => [c.state, c.winningOutcomeId, c.receivedAt])).toEqual([["settled", settledId, "2026-11-01T14:00:01.000Z"]]);
    const byState = resolutionsResponse.parse((await callRoute(listResolutions, { path: "/v0/resolutions?state=settled", key })).body);
    expect(byState.data.map((c) => c.market)).toEqual([settledId]);
  });

  it("refuses a bad parameter with a 400 naming it", async () => {
    for (const [query, parameter] of [["state=won", "state"], ["since=yesterday", "since"], ["cursor=zzz", "cursor"], ["limit=0", "limit"]] as const) {
      const res = await callRoute(listResolutions, { path: `/v0/resolutions?${query}`, key });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(parameter);
    }
  });

  it("is described in the OpenAPI document", async () => {
    const doc = (await callRoute(openapi, { path: "/v0/openapi.json" })).body as { paths: Record<string, unknown>; components?: unknown };
    expect(Object.keys(doc.paths)).toContain("/v0/resolutions");
    expect(JSON.stringify(doc)).toContain("winningOutcomeId");
  });
});
