import { beforeAll, describe, expect, it, vi } from "vitest";
import { GET as calibrationRoute } from "@/app/v0/calibration/route";
import { GET as resolutionsRoute } from "@/app/v0/resolutions/route";
import type { CalibrationResponse } from "@/lib/calibration/shapes";
import type { ResolutionChangePublic } from "@/lib/outcomes/shapes";
import { DEMO_RESOLUTION_SOURCE } from "@/lib/demo/resolutions";
import { startDemoTicker } from "@/lib/demo/live";
import { InProcessBus, type ResolutionMessage } from "@/lib/live/bus";
import { recordedVenueTables } from "@/lib/ticks/published";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";
import { getMarketOrThrow } from "@/lib/catalog/resolve";
import { desc, eq } from "drizzle-orm";
import { getDb } from "@/lib/db";
import { recorderRuns } from "@/lib/db/schema/recorder-runs";
import { SYNTHETIC_MODE } from "@/lib/recorder/journal";
import { DEMO_PAIR } from "@/lib/demo/pair";
import { demoMarketsFromCatalog } from "@/lib/demo/ticks";
import { recordedBookAt } from "@/lib/history/orderbooks";
import { sparklines } from "@/lib/history/prices";
import { runAdminCommand, type AdminIo } from "@/lib/operator/commands";
import { getTickStores } from "@/lib/ticks";

/**
 * One source of truth for every demo number (README, "Quick start"): after `admin demo-ticks`,
 * every demo market's catalog price is the last recorded book's mid (within a tick), its 24-hour
 * change is the history's own change (the mid now minus the mid 24 hours ago, within a tick), and
 * its sparkline ends at its price. Walks every mock market with a history and both sides of the
 * demo pair. The markets the history closes are resolved by their own price paths (docs/outcomes.md,
 * "The offline demo"), and the feed, each market's resolution and the calibration agree on them.
 */

const TICK = 0.01;
const DAY = 86_400_000;
let now: number;

const said: string[] = [];
const io: AdminIo = { say: (message) => said.push(message), out: (result) => said.push(result), readInput: async () => "" };

async function mid(outcomeId: string, at: number): Promise<number> {
  const book = await recordedBookAt(await getDb(), (await getTickStores()).service, outcomeId, { at, depth: 1 });
  const bid = book.bids[0]?.price;
  const ask = book.asks[0]?.price;
  expect(bid, `${outcomeId} has a bid at ${new Date(at).toISOString()}`).toBeDefined();
  expect(ask, `${outcomeId} has an ask at ${new Date(at).toISOString()}`).toBeDefined();
  return ((bid ?? 0) + (ask ?? 0)) / 2;
}

beforeAll(async () => {
  expect(await runAdminCommand(["ingest", "--venue", "mock"], io), said.join("\n")).toBe(0);
  expect(await runAdminCommand(["demo-ticks", "--days", "2"], io), said.join("\n")).toBe(0);
  // The instant the history ends (its journal run's stop): the catalog was priced as of then.
  const [run] = await (await getDb()).select({ stoppedAt: recorderRuns.stoppedAt }).from(recorderRuns).where(eq(recorderRuns.mode, SYNTHETIC_MODE)).orderBy(desc(recorderRuns.stoppedAt)).limit(1);
  now = run?.stoppedAt?.getTime() ?? Number.NaN;
  expect(Number.isFinite(now)).toBe(true);
}, 1_200_000);

describe("the demo's numbers agree everywhere", () => {
  it("every mock market with a history: catalog price = last recorded mid, 24h change = the history's change, sparkline ends at the price", async () => {
    const db = await getDb();
    const markets = await demoMarketsFromCatalog(db, "mock");
    expect(markets.length).toBeGreaterThan(10);
    const lines = new Map((await sparklines(db, (await getTickStores()).service, { marketIds: markets.flatMap((m) => (m.marketId === undefined ? [] : [m.marketId])) }, now)).map((line) => [line.marketId, line]));
    for (const market of markets) {
      const listed = await getMarketOrThrow(db, market.marketId ?? "");
      const yes = listed.outcomes[0];
      expect(yes?.outcomeId).toBe(market.outcomeIds[0]);
      if (yes === undefined) continue;
      const [nowMid, dayAgoMid] = [await mid(yes.outcomeId, now), await mid(yes.outcomeId, now - DAY)];
      expect(Math.abs(yes.price - nowMid), `${listed.marketId} price ${yes.price} vs book mid ${nowMid}`).toBeLessThanOrEqual(TICK);
      expect(Math.abs((yes.priceChange24h ?? Number.NaN) - (nowMid - dayAgoMid)), `${listed.marketId} change ${yes.priceChange24h} vs ${nowMid - dayAgoMid}`).toBeLessThanOrEqual(TICK);
      const last = lines.get(listed.marketId)?.points.at(-1)?.[1];
      expect(last, `${listed.marketId} has a sparkline`).toBeDefined();
      expect(Math.abs((last ?? Number.NaN) - yes.price)).toBeLessThanOrEqual(TICK);
      // The NO outcome mirrors the YES book.
      const no = listed.outcomes[1];
      expect(Math.abs((no?.price ?? Number.NaN) - (1 - nowMid))).toBeLessThanOrEqual(TICK);
    }
  });

  it("the demo pair: each venue's catalog price and 24h change come from its own recorded book", async () => {
    const db = await getDb();
    for (const [ref, outcomeId] of [
      [DEMO_PAIR.polymarket.venueMarketId, DEMO_PAIR.polymarket.yes],
      [DEMO_PAIR.kalshi.ticker, DEMO_PAIR.kalshi.ticker],
    ] as const) {
      const listed = await getMarketOrThrow(db, ref);
      const yes = listed.outcomes.find((o) => o.outcomeId === outcomeId);
      expect(yes, `${ref} lists ${outcomeId}`).toBeDefined();
      const [nowMid, dayAgoMid] = [await mid(outcomeId, now), await mid(outcomeId, now - DAY)];
      expect(Math.abs((yes?.price ?? Number.NaN) - nowMid), `${ref} price ${yes?.price} vs book mid ${nowMid}`).toBeLessThanOrEqual(TICK);
      expect(Math.abs((yes?.priceChange24h ?? Number.NaN) - (nowMid - dayAgoMid)), `${ref} change`).toBeLessThanOrEqual(TICK);
    }
  });
});

describe("the demo's synthetic resolutions", () => {
  let key: string;
  let settled: ResolutionChangePublic[];
  let changes: ResolutionChangePublic[];

  beforeAll(async () => {
    ({ key } = await makeKey("enterprise"));
    const res = await callRoute(resolutionsRoute, { path: "/v0/resolutions?venue=mock&limit=1000", key });
    expect(res.status, res.text).toBe(200);
    const body = res.body as { data: ResolutionChangePublic[]; nextCursor: string | null };
    expect(body.nextCursor).toBeNull();
    changes = body.data;
    settled = changes.filter((c) => c.state === "settled");
  });

  it("closes two in five of the mock markets, the most traded left open, each closed, determined and settled, all marked synthetic", async () => {
    const markets = await demoMarketsFromCatalog(await getDb(), "mock");
    expect(settled.length).toBe(Math.floor(markets.length * 0.4));
    expect(settled.map((c) => c.venueMarketId)).not.toContain(markets[0]?.venueMarketId);
    for (const c of changes) {
      expect([c.learnedBy, c.synthetic, c.venueState, c.resolutionSource]).toEqual(["synthetic", true, null, DEMO_RESOLUTION_SOURCE]);
    }
    for (const market of settled) {
      const own = changes.filter((c) => c.venueMarketId === market.venueMarketId);
      expect(own.map((c) => c.state)).toEqual(["closed", "determined", "settled"]);
      expect(own.every((c) => c.closedAt === market.closedAt && Date.parse(c.venueTime) >= Date.parse(market.closedAt ?? ""))).toBe(true);
      expect(Date.parse(market.venueTime)).toBeLessThanOrEqual(now);
    }
  });

  it("resolves each by its price path: the recorded YES mid at the close is on the winner's side, and no book changes after it", async () => {
    const stores = await getTickStores();
    let yes = 0;
    for (const market of settled) {
      const close = Date.parse(market.closedAt ?? "");
      const [yesId, noId] = market.outcomeIds;
      const closingMid = await mid(yesId ?? "", close);
      if (market.settlementValue === 1) {
        yes += 1;
        expect(market.winningOutcomeId).toBe(yesId);
        expect(closingMid, market.venueMarketId).toBeGreaterThan(0.5);
      } else if (market.settlementValue === 0) {
        expect(market.winningOutcomeId).toBe(noId);
        expect(closingMid, market.venueMarketId).toBeLessThan(0.5);
      } else {
        expect([market.settlementValue, market.winningOutcomeId, closingMid]).toEqual([0.5, null, 0.5]);
      }
      // The book stands as it was at the close: the mid now is the closing mid.
      expect(await mid(yesId ?? "", now)).toBe(closingMid);
      const after = await stores.queries.query({
        query: `SELECT count() AS n FROM ${recordedVenueTables.polymarket} WHERE market = {market:String} AND timestamp >= fromUnixTimestamp64Milli({close:Int64})`,
        query_params: { market: market.market, close },
        format: "JSONEachRow",
      });
      expect(Number((await after.json<{ n: string | number }>())[0]?.n)).toBe(0);
    }
    // Both results occur (the draws follow the markets' odds; the demo's seed gives both).
    expect(yes).toBeGreaterThan(0);
    expect(yes).toBeLessThan(settled.length);
  });

  it("shows the same result as each market's resolution, and scores exactly those markets in the calibration", async () => {
    const db = await getDb();
    for (const market of settled) {
      const listed = await getMarketOrThrow(db, market.venueMarketId);
      expect(listed.resolution).toMatchObject({
        state: "settled",
        winningOutcomeId: market.winningOutcomeId,
        settlementValue: market.settlementValue,
        closedAt: market.closedAt,
        settledAt: market.venueTime,
        learnedBy: "synthetic",
        synthetic: true,
      });
    }
    const res = await callRoute(calibrationRoute, { path: `/v0/calibration?venue=mock&horizon=1h,1d&since=${now - 3 * DAY}&until=${now + 60_000}`, key });
    expect(res.status, res.text).toBe(200);
    const figures = (res.body as CalibrationResponse).data;
    expect(figures.map((f) => f.horizon)).toEqual(["1h", "1d"]);
    for (const figure of figures) {
      // Every resolved market had a recorded book an hour and a day before its close (it closes at least 26 hours into the history).
      expect([figure.count, figure.unscored, figure.sources.book], figure.horizon).toEqual([settled.length, 0, settled.length]);
    }
  });

  it("the live demo (npm run demo) moves the open markets and never a closed one, whose quote stays the close's; it prices the pair from its books at the price's instant", async () => {
    const db = await getDb();
    const stores = await getTickStores();
    const quoteOf = async (venueMarketId: string) => (await getMarketOrThrow(db, venueMarketId)).outcomes[0]?.price;
    const before = new Map(await Promise.all(settled.map(async (m) => [m.venueMarketId, await quoteOf(m.venueMarketId)] as const)));
    const started = Date.now();
    // The pair steps every 5 ms: a re-pricing whose awaits let a step in must still price the books as they stood at its instant.
    const ticker = await startDemoTicker(db, stores, new InProcessBus(), { meanStepMs: 20, flushEveryMs: 200, quoteEveryMs: 1_000, pairStepMs: 5 });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await ticker.stop();
    expect(ticker.rows).toBeGreaterThan(0);
    for (const [ref, outcomeId] of [
      [DEMO_PAIR.polymarket.venueMarketId, DEMO_PAIR.polymarket.yes],
      [DEMO_PAIR.kalshi.ticker, DEMO_PAIR.kalshi.ticker],
    ] as const) {
      const market = await getMarketOrThrow(db, ref);
      const pricedAt = Date.parse(market.updatedAt);
      expect(pricedAt, `${ref} was re-priced by the live demo`).toBeGreaterThanOrEqual(started);
      expect(market.outcomes[0]?.price, `${ref} priced at ${market.updatedAt}`).toBeCloseTo(await mid(outcomeId, pricedAt), 9);
    }
    const rowsSince = async (markets: readonly string[]) => {
      const result = await stores.queries.query({
        query: `SELECT count() AS n FROM ${recordedVenueTables.polymarket} WHERE market IN {markets:Array(String)} AND timestamp >= fromUnixTimestamp64Milli({since:Int64})`,
        query_params: { markets: [...markets], since: started },
        format: "JSONEachRow",
      });
      return Number((await result.json<{ n: string | number }>())[0]?.n);
    };
    const open = (await demoMarketsFromCatalog(db, "mock")).filter((m) => !settled.some((s) => s.market === m.conditionId));
    expect(await rowsSince(open.map((m) => m.conditionId))).toBeGreaterThan(0);
    expect(await rowsSince(settled.map((m) => m.market))).toBe(0);
    for (const market of settled) expect(await quoteOf(market.venueMarketId), market.venueMarketId).toBe(before.get(market.venueMarketId));
  });
  it("the live demo resolves an open market now and then by the history's rule, says so on the live bus, and never moves it again", async () => {
    const db = await getDb();
    const stores = await getTickStores();
    const bus = new InProcessBus();
    const heard: ResolutionMessage[] = [];
    bus.subscribeResolutions("mock", (message) => heard.push(message));
    const [first] = await demoMarketsFromCatalog(db, "mock");
    const ticker = await startDemoTicker(db, stores, bus, { meanStepMs: 20, flushEveryMs: 200, quoteEveryMs: 60_000, resolveEveryMs: 400, resolveDriftMs: 800 });
    try {
      await vi.waitFor(() => expect(heard.some((m) => m.state === "closed")).toBe(true), { timeout: 20_000, interval: 200 });
    } finally {
      await ticker.stop();
    }
    const closed = heard.filter((m) => m.state === "closed");
    // The first market (the README's examples') stays open; a market closed live was open before.
    expect(closed.map((m) => m.market)).not.toContain(first?.conditionId);
    for (const m of closed) expect(settled.map((s) => s.market)).not.toContain(m.market);
    const market = closed[0];
    if (market === undefined) throw new Error("no market closed");
    expect(market).toMatchObject({ source: "synthetic", resolutionSource: DEMO_RESOLUTION_SOURCE, winningOutcomeId: null });
    // The feed says the same, and the market's own answer.
    const res = await callRoute(resolutionsRoute, { path: `/v0/resolutions?venue=mock&limit=1000`, key });
    expect(res.status, res.text).toBe(200);
    const feed = (res.body as { data: ResolutionChangePublic[] }).data.filter((c) => c.market === market.market);
    expect(feed.map((c) => c.state)).toEqual(["closed"]);
    expect((await getMarketOrThrow(db, market.venueMarketId)).resolution).toMatchObject({ state: "closed", learnedBy: "synthetic" });
    // No book change after its close.
    const after = await stores.queries.query({
      query: `SELECT count() AS n FROM ${recordedVenueTables.polymarket} WHERE market = {market:String} AND timestamp > fromUnixTimestamp64Milli({closed:Int64})`,
      query_params: { market: market.market, closed: market.closedAt ?? 0 },
      format: "JSONEachRow",
    });
    expect(Number((await after.json<{ n: string | number }>())[0]?.n)).toBe(0);
  });
});
