import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Only the test's venue records in this process: the real venues' recorders stay off (their
// settings), so starting "every enabled recorder" starts venue X alone and no test reaches a venue.
vi.hoisted(() => {
  process.env.RECORDER_ENABLED = "false";
  process.env.KALSHI_RECORDER_ENABLED = "false";
});

import { GET as bookRoute } from "@/app/v0/orderbooks/[outcomeId]/route";
import { GET as spreadsRoute } from "@/app/v0/pairs/[a]/[b]/spreads/route";
import { GET as statusRoute } from "@/app/v0/status/route";
import { getDb } from "@/lib/db";
import { recorderIncidents, recorderRuns } from "@/lib/db/schema";
import { parseQuery } from "@/lib/input";
import { runMode } from "@/lib/recorder/journal";
import { normalizeFrame } from "@/lib/recorder/polymarket/normalize";
import { recordedMarketIn } from "@/lib/recorder/locate";
import { recordedMarketOf, recordedVenues, recordingRules, registerRecordedVenue, startRecorders } from "@/lib/recorder/registry";
import { insertTickRows } from "@/lib/recorder/writer";
import { getPairSpreads } from "@/lib/spreads/service";
import { spreadsQuery } from "@/lib/spreads/shapes";
import { getTickStores, requestTickReader } from "@/lib/ticks";
import { recordedVenueTables } from "@/lib/ticks/published";
import { makeEvent, seedCatalog } from "./helpers/catalog";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";
import { startFakeVenueXChannel, type FakeVenueXChannel } from "./venue-x/fake-channel";
import { VENUE_X, venueX } from "./venue-x/venue";

/**
 * Issue 32, item 3: a recorded venue is its folder and one registry line. Venue X (test/venue-x/:
 * its channel, normalizer, recorder, fee schedule and status, described as a RecordedVenue) is
 * registered here, the one line, with no other file edited for it; it is then recorded from a
 * loopback channel speaking its wire, served by /v0/orderbooks, listed on /v0/status and priced in
 * a spread against a Polymarket market, through the same code the real venues go through.
 */

const MARKET = "VX-1";
const YES = "VX-1-Y";
const NO = "VX-1-N";
const CONDITION = `0x${"5e".repeat(32)}`;
const POLY_YES = "7700000000000000000000000000000000000000000000000000000000000000000000000001";
const POLY_NO = "7700000000000000000000000000000000000000000000000000000000000000000000000002";

let fake: FakeVenueXChannel;
let venue: ReturnType<typeof venueX>;
let unregister: () => void;
let startedAt: number;

async function until(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  await seedCatalog([
    makeEvent({ venue: VENUE_X, category: "Politics" }, [
      { venue: VENUE_X, venueMarketId: MARKET, contractAddress: null, outcomes: [{ outcomeId: YES, label: "Yes", price: 0.45, priceChange24h: 0 }, { outcomeId: NO, label: "No", price: 0.55, priceChange24h: 0 }] },
    ]),
    makeEvent({ venue: "polymarket", category: "Politics" }, [
      { venueMarketId: "vx-poly", contractAddress: CONDITION, outcomes: [{ outcomeId: POLY_YES, label: "Yes", price: 0.5, priceChange24h: 0 }, { outcomeId: POLY_NO, label: "No", price: 0.5, priceChange24h: 0 }] },
    ]),
  ]);
  startedAt = Date.now() - 1_000;
  fake = await startFakeVenueXChannel([
    // Venue X sends each side best first: YES bids 0.46 (best), 0.45; asks 0.48 (best), 0.50.
    { market: MARKET, outcome: YES, bids: [["0.46", "300"], ["0.45", "500"]], asks: [["0.48", "200"], ["0.50", "400"]] },
    { market: MARKET, outcome: NO, bids: [["0.52", "200"]], asks: [["0.54", "300"]] },
  ]);
  venue = venueX({ wsUrl: fake.url, markets: [MARKET] });
  // The one registry line, injected by the test instead of written in lib/recorder/registry.ts.
  unregister = registerRecordedVenue(venue);
  // Polymarket's side of the pair, recorded before: asks 0.40 on its Yes, covered by a journal run.
  const book = (asset: string, bids: [string, string][], asks: [string, string][], ts: number) => ({ market: CONDITION, asset_id: asset, timestamp: String(ts), hash: "", bids: bids.map(([price, size]) => ({ price, size })), asks: asks.map(([price, size]) => ({ price, size })), tick_size: "0.01", event_type: "book" });
  const polyRows = normalizeFrame(JSON.stringify([book(POLY_YES, [["0.38", "1000"]], [["0.40", "1000"]], startedAt), book(POLY_NO, [["0.60", "1000"]], [["0.62", "1000"]], startedAt)]), startedAt).rows;
  const { writer } = await getTickStores();
  await insertTickRows(writer, polyRows, recordedVenueTables.polymarket);
  const db = await getDb();
  const id = randomUUID();
  await db.insert(recorderRuns).values({ id, host: "venue-x-test", pid: 1, mode: runMode("in-process", "polymarket"), startedAt: new Date(startedAt - 1_000), beatAt: new Date(), counters: {} });
  await db.insert(recorderIncidents).values({ runId: id, kind: "assets_added", startedAt: new Date(startedAt - 1_000), assets: [POLY_YES, POLY_NO], message: "subscribed", detail: {} });
}, 60_000);

afterAll(async () => {
  await venue.recorder.stop();
  unregister();
  await fake.close();
});

describe("a third recorded venue from its own folder and one registry line", () => {
  it("is in the list every reader reads, after the real venues", () => {
    expect(recordedVenues().map((v) => v.id)).toEqual(["polymarket", "kalshi", VENUE_X]);
    expect(recordedMarketOf({ venue: VENUE_X, venueMarketId: MARKET, contractAddress: null })).toMatchObject({ table: "venuex_orderbook", market: MARKET });
    expect(() => registerRecordedVenue(venueX({ wsUrl: fake.url, markets: [] }))).toThrow(/already registered/);
  });

  it("is recorded: the jobs' start of every enabled recorder starts it, its channel's books land in its own table and its journal", async () => {
    const db = await getDb();
    const stores = await getTickStores();
    const started = startRecorders({ stores, db, mode: "in-process" });
    expect(started.map((s) => s.venue.id)).toEqual([VENUE_X]);
    await Promise.all(started.map((s) => s.started));
    await until(() => (venue.running()?.stats.frames ?? 0) >= 3);
    await venue.running()?.writer.flush();
    expect(fake.received).toContainEqual({ op: "subscribe", markets: [MARKET] });
    await until(() => fake.received.includes("pong"));
    const rows = await (await stores.writer.query({ query: "SELECT market, event_type, JSONExtractString(data, 'asset_id') AS asset FROM venuex_orderbook ORDER BY asset", format: "JSONEachRow" })).json();
    expect(rows).toEqual([
      { market: MARKET, event_type: "book", asset: NO },
      { market: MARKET, event_type: "book", asset: YES },
    ]);
    const runs = await db.select().from(recorderRuns);
    expect(runs.map((run) => run.mode)).toContain(`${VENUE_X}: in-process`);
  });

  it("is served by GET /v0/orderbooks from its table, best level first", async () => {
    const { key } = await makeKey("pro");
    const res = await callRoute(bookRoute, { path: `/v0/orderbooks/${YES}`, key, params: { outcomeId: YES } });
    expect(res.status).toBe(200);
    const data = (res.body as { data: { source: string; market: string; bids: Array<{ price: number; size: number }>; asks: Array<{ price: number; size: number }> } }).data;
    expect(data).toMatchObject({ source: "recorded", market: MARKET });
    expect(data.bids.map((level) => [level.price, level.size])).toEqual([
      [0.46, 300],
      [0.45, 500],
    ]);
    expect(data.asks.map((level) => [level.price, level.size])).toEqual([
      [0.48, 200],
      [0.5, 400],
    ]);
  });

  it("is listed on GET /v0/status under its own section, with its recorder's heartbeat", async () => {
    const { key } = await makeKey("free");
    const res = await callRoute(statusRoute, { path: "/v0/status", key });
    expect(res.status).toBe(200);
    const body = res.body as Record<string, Record<string, unknown>>;
    expect(body.venueXRecorder).toMatchObject({ venue: VENUE_X, table: "venuex_orderbook", running: true, subscribedAssets: 2, heartbeat: { running: true, mode: `${VENUE_X}: in-process` } });
    // The real venues keep their sections.
    expect(Object.keys(body)).toEqual(expect.arrayContaining(["recorder", "kalshiRecorder", "venueXRecorder"]));
  });

  it("is priced in a spread against a Polymarket market, with its own fee schedule", async () => {
    const now = Date.now() + 1_000;
    const query = parseQuery(spreadsQuery, new URLSearchParams({ since: String(startedAt - 1_000), until: String(now), size: "1000" }));
    const page = await getPairSpreads(await getDb(), requestTickReader(), YES, "vx-poly", query, now, {});
    expect(page.meta.pair.a).toMatchObject({ exchange: VENUE_X, fee: { known: true, schedule: "venuex-flat", takerRate: "0.02" } });
    const known = page.data.filter((point) => point.known);
    expect(known.length).toBeGreaterThan(0);
    // Buy Polymarket's Yes at 0.40, sell venue X's at 0.46: 0.06 gross a contract.
    for (const point of known) expect(point.gross?.bToA).toBeCloseTo(0.06, 6);
    // And through the route, as a client asks for it.
    const { key } = await makeKey("pro");
    const res = await callRoute(spreadsRoute, { path: `/v0/pairs/${YES}/vx-poly/spreads?since=${startedAt - 1_000}&until=${now}&size=1000`, key, params: { a: YES, b: "vx-poly" } });
    expect(res.status).toBe(200);
    expect((res.body as { meta: { pair: { a: { fee: { schedule: string } } } } }).meta.pair.a.fee.schedule).toBe("venuex-flat");
  });

  it("is not served without its registry line: the line is what makes the venue known", async () => {
    const { key } = await makeKey("pro");
    unregister();
    try {
      const res = await callRoute(bookRoute, { path: `/v0/orderbooks/${YES}`, key, params: { outcomeId: YES } });
      expect(res.status).toBe(404);
      expect(JSON.stringify(res.body)).toContain("not recorded");
    } finally {
      unregister = registerRecordedVenue(venue);
    }
    expect((await callRoute(bookRoute, { path: `/v0/orderbooks/${YES}`, key, params: { outcomeId: YES } })).status).toBe(200);
  });

  it("is found on the market page's charts from the rules the registry hands the page, as on the server", () => {
    const market = { venue: VENUE_X, venueMarketId: MARKET, contractAddress: null };
    expect(recordedMarketIn(recordingRules(), market)).toMatchObject({ table: "venuex_orderbook", market: MARKET });
    expect(recordedMarketIn(recordingRules(), market)?.table).toBe(recordedMarketOf(market)?.table);
  });
});
