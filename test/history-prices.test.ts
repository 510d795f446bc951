import { beforeAll, describe, expect, it, vi } from "vitest";
import type { UnifiedEvent } from "pmxt-core";
import { GET as pricesRoute } from "@/app/v0/markets/[id]/prices/route";
import { GET as sparklinesRoute } from "@/app/v0/prices/sparklines/route";
import { marketUuid } from "@/lib/catalog/ids";
import { pollVenue } from "@/lib/catalog/ingest";
import { catalogFollowUps } from "@/lib/jobs/catalog";
import { getDb } from "@/lib/db";
import type { Exchange } from "@/lib/venues/factory";
import { describeKeyedRoute } from "./helpers/auth-suite";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

vi.hoisted(() => {
  process.env.RATE_LIMIT_FREE = "12";
});

/** A venue whose listing is one binary market at the given prices (what pmxt-core's fetchEvents returns). */
function venueAt(yes: number, volume24h: number): Exchange {
  const events = [
    {
      id: "ev-prices",
      title: "Will it rain?",
      markets: [
        {
          marketId: "rain-1",
          title: "Will it rain?",
          description: "",
          outcomes: [
            { outcomeId: "RAIN-YES", label: "Yes", price: yes },
            { outcomeId: "RAIN-NO", label: "No", price: Math.round((1 - yes) * 100) / 100 },
          ],
          resolutionDate: new Date("2027-01-01T00:00:00Z"),
          volume24h,
          liquidity: 10,
          url: "https://example.test/rain",
          status: "active",
        },
      ],
    },
  ] as unknown as UnifiedEvent[];
  return { fetchEvents: async () => events, fetchMarkets: async () => [] } as unknown as Exchange;
}

const marketId = marketUuid("kalshi", "rain-1");
let key: string;

beforeAll(async () => {
  const db = await getDb();
  for (const [price, volume] of [
    [0.42, 1000],
    [0.47, 1500],
  ] as const) {
    const summary = await pollVenue(db, "kalshi", { trigger: "test", exchangeFor: () => venueAt(price, volume), closeChecks: 0, hooks: catalogFollowUps });
    expect(summary.outcome).toBe("succeeded");
  }
  key = (await makeKey("free")).key;
});

describe("price history from catalog polls", () => {
  it("two polls give per outcome OHLC: open the first price, close the second, high/low, two snapshots", async () => {
    key = (await makeKey("free")).key; // its own per-minute allowance
    const res = await callRoute(pricesRoute, { path: `/v0/markets/${marketId}/prices?interval=1h`, key, params: { id: marketId } });
    expect(res.status).toBe(200);
    const data = (res.body as { data: { venue: string; outcomes: Array<{ outcomeId: string; label: string; candles: Array<Record<string, number>> }> } }).data;
    expect(data.venue).toBe("kalshi");
    expect(data.outcomes.map((o) => o.outcomeId)).toEqual(["RAIN-YES", "RAIN-NO"]);
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const [yes, no] = data.outcomes;
    // Two polls a moment apart fall in one bucket (unless an hour boundary passed between them).
    const yesCandles = yes?.candles ?? [];
    if (yesCandles.length === 1) {
      expect(yesCandles[0]).toEqual({ time: hour, open: 0.42, high: 0.47, low: 0.42, close: 0.47, snapshots: 2, volume24h: 1500 });
      expect(no?.candles[0]).toMatchObject({ open: 0.58, high: 0.58, low: 0.53, close: 0.53, snapshots: 2 });
    } else {
      expect(yesCandles.map((c) => [c.open, c.close, c.snapshots])).toEqual([
        [0.42, 0.42, 1],
        [0.47, 0.47, 1],
      ]);
    }
    const daily = await callRoute(pricesRoute, { path: `/v0/markets/rain-1/prices?interval=1d`, key, params: { id: "rain-1" } });
    const day = (daily.body as { data: { outcomes: Array<{ candles: Array<Record<string, number>> }> } }).data.outcomes[0]?.candles;
    expect(day).toEqual([{ time: Math.floor(Date.now() / 86_400_000) * 86_400_000, open: 0.42, high: 0.47, low: 0.42, close: 0.47, snapshots: 2, volume24h: 1500 }]);
    const before = await callRoute(pricesRoute, { path: `/v0/markets/${marketId}/prices?until=2026-01-01T00:00:00Z`, key, params: { id: marketId } });
    expect((before.body as { data: { outcomes: Array<{ candles: unknown[] }> } }).data.outcomes.every((o) => o.candles.length === 0)).toBe(true);
  });

  it("refuses bad parameters naming them; 404 for an unknown market", async () => {
    key = (await makeKey("free")).key; // its own per-minute allowance
    for (const [query, parameter] of [
      ["interval=5m", "interval"],
      ["since=last-week", "since"],
      ["interval=1h&since=2026-01-01T00:00:00Z&until=2026-03-01T00:00:00Z", "since"],
      ["since=2026-03-01T00:00:00Z&until=2026-01-01T00:00:00Z", "since"],
      ["limit=5", "limit"],
    ] as const) {
      const bad = await callRoute(pricesRoute, { path: `/v0/markets/${marketId}/prices?${query}`, key, params: { id: marketId } });
      expect(bad.status, query).toBe(400);
      expect((bad.body as { error: { parameter: string } }).error.parameter).toBe(parameter);
    }
    const missing = await callRoute(pricesRoute, { path: "/v0/markets/nope/prices", key, params: { id: "nope" } });
    expect(missing.status).toBe(404);
  });

  it("sparklines: hourly closes of the first outcome, for many markets in one call", async () => {
    key = (await makeKey("free")).key; // its own per-minute allowance
    const res = await callRoute(sparklinesRoute, { path: `/v0/prices/sparklines?marketIds=${marketId},${marketUuid("kalshi", "none")}`, key });
    expect(res.status).toBe(200);
    const data = (res.body as { data: Array<{ marketId: string; outcomeId: string; points: Array<[number, number]> }> }).data;
    expect(data).toHaveLength(1);
    expect(data[0]?.marketId).toBe(marketId);
    expect(data[0]?.outcomeId).toBe("RAIN-YES");
    expect(data[0]?.points.at(-1)?.[1]).toBe(0.47);
    const bad = await callRoute(sparklinesRoute, { path: "/v0/prices/sparklines?marketIds=abc", key });
    expect((bad.body as { error: { parameter: string } }).error.parameter).toBe("marketIds");
  });
});

describeKeyedRoute({
  name: "GET /v0/markets/{id}/prices",
  handler: pricesRoute,
  request: { path: `/v0/markets/${marketId}/prices`, params: { id: marketId } },
  surface: "v0",
});

describeKeyedRoute({
  name: "GET /v0/prices/sparklines",
  handler: sparklinesRoute,
  request: { path: `/v0/prices/sparklines?marketIds=${marketId}` },
  surface: "v0",
});
