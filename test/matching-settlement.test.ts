import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db";
import { events, ingestLeases, ingestRuns, marketMatches, markets, marketSettlementFields, matchFeatures } from "@/lib/db/schema";
import { ingestCatalog, readSettlementFields } from "@/lib/jobs/catalog";
import type { Features } from "@/lib/matching/extract";
import { sweepKalshiSettlement } from "@/lib/recorder/kalshi/settlement";
import { KalshiRest } from "@/lib/recorder/kalshi/rest";
import { sweepPolymarketSettlement } from "@/lib/recorder/polymarket/settlement";
import { PolymarketRest } from "@/lib/recorder/polymarket/rest";
import { createExchange } from "@/lib/venues/factory";
import { createFakeVenues, type JsonObject } from "./fakes/venue-server";

// The settlement terms the venues state as fields, read from a loopback fake speaking their wire
// (Kalshi's /events with nested markets and /series, Gamma's /events), kept by market and read by
// matching before the rules' text.
const fake = createFakeVenues();

beforeAll(async () => {
  await fake.listen();
});

afterAll(async () => {
  await fake.close();
});

async function emptyStore() {
  const db = await getDb();
  await db.delete(marketMatches);
  await db.delete(matchFeatures);
  await db.delete(marketSettlementFields);
  await db.delete(markets);
  await db.delete(events);
  await db.delete(ingestRuns);
  await db.delete(ingestLeases);
  return db;
}

describe("the venues' settlement fields", () => {
  it("reads Kalshi's strikes, secondary rules and the event's and series' sources, across /events pages", async () => {
    fake.data.kalshiPageSize = 1;
    try {
      const rows = await sweepKalshiSettlement(new KalshiRest({ redirectUrl: fake.url }));
      const byTicker = new Map(rows.map((r) => [r.venueMarketId, r.fields]));
      const kalshiMarkets = fake.data.kalshiEvents.flatMap((e) => e.markets as JsonObject[]);
      expect(byTicker.size).toBe(kalshiMarkets.length);
      for (const market of kalshiMarkets) {
        const fields = byTicker.get(String(market.ticker));
        expect(fields?.strikeType).toBe(market.strike_type);
        expect(fields?.floorStrike).toBe(market.floor_strike ?? undefined);
        expect(fields?.capStrike).toBe(market.cap_strike ?? undefined);
        expect(fields?.rulesSecondary).toBe(market.rules_secondary);
        const event = fake.data.kalshiEvents.find((e) => e.event_ticker === market.event_ticker);
        const series = fake.data.kalshiSeries.find((s) => s.ticker === event?.series_ticker);
        // The event's sources, then the series' (each once).
        const expected = [...((event?.settlement_sources as JsonObject[]) ?? []), ...((series?.settlement_sources as JsonObject[]) ?? [])].map((s) => `${String(s.name)} ${String(s.url)}`);
        expect((fields?.sources ?? []).map((s) => `${s.name} ${s.url}`)).toEqual([...new Set(expected)]);
      }
      const bracket = kalshiMarkets.find((m) => m.strike_type === "between");
      expect(bracket).toBeDefined();
      expect(byTicker.get(String(bracket?.ticker))).toMatchObject({ strikeType: "between", floorStrike: bracket?.floor_strike, capStrike: bracket?.cap_strike });
    } finally {
      fake.data.kalshiPageSize = 200;
    }
  });

  it("reads Polymarket's resolutionSource, the market's own before its event's", async () => {
    const rows = await sweepPolymarketSettlement(new PolymarketRest({ redirectUrl: fake.url }));
    const open = fake.data.gammaEvents.filter((e) => e.closed !== true);
    for (const event of open) {
      for (const market of event.markets as JsonObject[]) {
        const row = rows.find((r) => r.venueMarketId === String(market.id));
        const own = typeof market.resolutionSource === "string" && market.resolutionSource !== "" ? market.resolutionSource : undefined;
        const expected = own ?? (typeof event.resolutionSource === "string" && event.resolutionSource !== "" ? event.resolutionSource : undefined);
        expect(row?.fields.sources?.[0]?.url ?? row?.fields.sources?.[0]?.name).toBe(expected);
      }
    }
    expect(rows.some((r) => (r.fields.sources ?? []).length > 0)).toBe(true);
  });

  it("keeps them by market after a poll, and matching reads the bound and the source from them before the text", async () => {
    const db = await emptyStore();
    const runs = await ingestCatalog(db, {
      venues: ["polymarket", "kalshi"],
      trigger: "test",
      attempts: 1,
      exchangeFor: (venue) => createExchange(venue, { redirectUrl: fake.url }),
      settlementRedirectUrl: fake.url,
    });
    expect(runs.map((r) => r.outcome)).toEqual(["succeeded", "succeeded"]);
    const stored = await db.select().from(marketSettlementFields);
    expect(stored.length).toBe((await db.select({ id: markets.id }).from(markets).where(eq(markets.closed, false))).length);

    const bracket = fake.data.kalshiEvents.flatMap((e) => e.markets as JsonObject[]).find((m) => m.strike_type === "between");
    const [market] = await db.select({ id: markets.id }).from(markets).where(eq(markets.venueMarketId, String(bracket?.ticker)));
    const [read] = await db.select({ features: matchFeatures.features }).from(matchFeatures).where(eq(matchFeatures.marketId, market?.id ?? ""));
    const features = read?.features as Features;
    // Both ends of the bracket, included, as the strike fields state them (the text's bound reads one side at most).
    expect(features.rules?.bound?.value).toBe(`≥ ${String(bracket?.floor_strike)} ≤ ${String(bracket?.cap_strike)}`);
    expect(features.rules?.bound?.wording).toContain("strike_type between");
  });

  it("reads a market again when its fields change, and not when they stay", async () => {
    const db = await getDb();
    const { runMatching } = await import("@/lib/matching/engine");
    const greater = fake.data.kalshiEvents.flatMap((e) => e.markets as JsonObject[]).find((m) => m.strike_type === "greater");
    expect(greater).toBeDefined();
    const [market] = await db.select({ id: markets.id }).from(markets).where(eq(markets.venueMarketId, String(greater?.ticker)));
    const id = market?.id ?? "";
    const later = new Date(Date.now() + 2 * 60 * 60 * 1000);
    await readSettlementFields(db, ["kalshi"], { redirectUrl: fake.url, now: later });
    const unchanged = await runMatching(db, { now: later });
    expect(unchanged.marketsRead).toBe(0);

    const original = greater?.strike_type ?? null;
    if (greater !== undefined) greater.strike_type = "greater_or_equal";
    try {
      const [before] = await db.select().from(marketSettlementFields).where(eq(marketSettlementFields.marketId, id));
      const evenLater = new Date(later.getTime() + 2 * 60 * 60 * 1000);
      await readSettlementFields(db, ["kalshi"], { redirectUrl: fake.url, now: evenLater });
      const [after] = await db.select().from(marketSettlementFields).where(eq(marketSettlementFields.marketId, id));
      expect(after?.hash).not.toBe(before?.hash);
      expect(after?.changedAt.getTime()).toBe(evenLater.getTime());
      const changed = await runMatching(db, { now: evenLater });
      expect(changed.marketsRead).toBe(1);
      const [read] = await db.select({ features: matchFeatures.features }).from(matchFeatures).where(eq(matchFeatures.marketId, id));
      expect((read?.features as Features).rules?.bound?.value).toBe(`≥ ${String(greater?.floor_strike)}`);
    } finally {
      if (greater !== undefined) greater.strike_type = original;
    }
  });

  it("reads none when a poll substitutes the exchanges without saying where their fields are", async () => {
    const db = await emptyStore();
    const runs = await ingestCatalog(db, {
      venues: ["kalshi"],
      trigger: "test",
      attempts: 1,
      exchangeFor: (venue) => createExchange(venue, { redirectUrl: fake.url }),
    });
    expect(runs.map((r) => r.outcome)).toEqual(["succeeded"]);
    expect((await db.select().from(markets)).length).toBeGreaterThan(0);
    expect(await db.select().from(marketSettlementFields)).toEqual([]);
  });
});
