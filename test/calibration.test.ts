import { beforeAll, describe, expect, it } from "vitest";
import { GET as calibrationMarketsRoute } from "@/app/v0/calibration/markets/route";
import { GET as calibrationRoute } from "@/app/v0/calibration/route";
import { GET as marketMatchesRoute } from "@/app/v0/markets/[id]/matches/route";
import { GET as matchedMarketsRoute } from "@/app/v0/matched-markets/route";
import { POST as sqlRoute } from "@/app/v0/sql/route";
import { GET as statusRoute } from "@/app/v0/status/route";
import type { CalibrationMarketsResponse, CalibrationResponse } from "@/lib/calibration/shapes";
import { marketUuid } from "@/lib/catalog/ids";
import { getDb } from "@/lib/db";
import { marketMatches } from "@/lib/db/schema/market-matches";
import { insertPriceSnapshots } from "@/lib/history/prices";
import { provenFalseIdentities } from "@/lib/matching/outcome-audit";
import { recordResolutions } from "@/lib/outcomes/store";
import type { ResolutionRecord } from "@/lib/outcomes/types";
import { insertTickRows } from "@/lib/recorder/writer";
import { getTickStores } from "@/lib/ticks";
import { kalshiTable } from "@/lib/ticks/ddl/0004_kalshi_orderbook";
import { describeKeyedRoute } from "./helpers/auth-suite";
import { makeEvent, seedCatalog } from "./helpers/catalog";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

/**
 * GET /v0/calibration and /v0/calibration/markets over markets whose outcomes, books and catalog
 * prices are written here through the owners' own writers (lib/outcomes, the recorder's insert,
 * the catalog's price snapshots); the figures are checked against values worked out by hand from
 * the data below, and one figure is recomputed from the published SQL tables read through
 * POST /v0/sql, with its own parsing of the books, and must equal the API's.
 */

const H = 3_600_000;
const D = 24 * H;
const CLOSE = Date.parse("2026-10-01T12:00:00Z");
const SINCE = CLOSE - 50 * D;
const UNTIL = CLOSE + D;
const window = `since=${SINCE}&until=${UNTIL}`;

interface Side {
  venueMarketId: string;
  category: string;
  market: string;
  yes: string;
  no: string;
  venue: "polymarket" | "kalshi";
}

const condition = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
const pm = (n: number, category = "Politics"): Side => ({ venue: "polymarket", venueMarketId: `cal-pm-${n}`, category, market: condition(0xca1000 + n), yes: `cal-pm-${n}-yes`, no: `cal-pm-${n}-no` });
const kx = (n: number): Side => ({ venue: "kalshi", venueMarketId: `KXCAL-${n}`, category: "Politics", market: `KXCAL-${n}`, yes: `KXCAL-${n}`, no: `KXCAL-${n}-NO` });

const P1 = pm(1); // Yes won
const P2 = pm(2); // No won
const P3 = pm(3, "Sports"); // a 50-50 split, no books
const P4 = pm(4); // determined, then voided: never scored
const P5 = pm(5); // determined Yes, then amended to No
const P6 = pm(6); // closed before the window
const P7 = pm(7); // closed, no result yet
const K1 = kx(1); // identity of P1, Yes won: agrees
const K2 = kx(2); // identity of P2, Yes won: P2 settled No, a proven false identity

function record(side: Side, state: ResolutionRecord["state"], atMs: number, winner: "yes" | "no" | null, value: number | null, closeMs = CLOSE, venueState: string | null = null): ResolutionRecord {
  return {
    venue: side.venue,
    venueMarketId: side.venueMarketId,
    market: side.market,
    outcomeIds: [side.yes, side.no],
    state,
    venueState,
    winningOutcomeId: winner === null ? null : winner === "yes" ? side.yes : side.no,
    settlementValue: value,
    closedAt: new Date(closeMs),
    venueTime: new Date(atMs),
    receivedAt: new Date(atMs + 1000),
    source: "rest",
    resolutionSource: null,
    raw: "{}",
  };
}

const book = (side: Side, atMs: number, bid: string, ask: string) => ({
  timestampMs: atMs,
  receivedMs: atMs + 5,
  market: side.market,
  eventType: "book" as const,
  data: JSON.stringify({ asset_id: side.yes, bids: [[(Number(bid) - 0.02).toFixed(2), "10"], [bid, "5"]], asks: [[(Number(ask) + 0.02).toFixed(2), "10"], [ask, "5"]], hash: "h", tick_size: "0.01" }),
});
const change = (side: Side, atMs: number, bid: string, ask: string) => ({
  timestampMs: atMs,
  receivedMs: atMs + 5,
  market: side.market,
  eventType: "price_change" as const,
  data: JSON.stringify({ asset_id: side.yes, price: bid, size: "1", side: "BUY", best_bid: bid, best_ask: ask, hash: "c" }),
});

let pro: string;
let free: string;
let enterprise: string;

beforeAll(async () => {
  const db = await getDb();
  const stores = await getTickStores();
  const items = [P1, P2, P3, P4, P5, P6, P7, K1, K2].map((side) =>
    makeEvent({ venue: side.venue, category: side.category }, [
      {
        venueMarketId: side.venueMarketId,
        contractAddress: side.venue === "kalshi" ? null : side.market,
        title: `Calibration test ${side.venueMarketId}`,
        outcomes: [
          { outcomeId: side.yes, label: "Yes", price: 0.5, priceChange24h: 0 },
          { outcomeId: side.no, label: "No", price: 0.5, priceChange24h: 0 },
        ],
      },
    ]),
  );
  await seedCatalog(items);

  await recordResolutions(db, stores.writer, [
    record(P1, "closed", CLOSE, null, null),
    record(P1, "settled", CLOSE + H, "yes", 1),
    record(P2, "determined", CLOSE + H, "no", 0),
    record(P3, "settled", CLOSE + H, null, 0.5),
    record(P4, "determined", CLOSE + H, "yes", 1),
    record(P4, "voided", CLOSE + 2 * H, null, null),
    record(P5, "determined", CLOSE + H, "yes", 1),
    record(P5, "determined", CLOSE + 3 * H, "no", 0, CLOSE, "amended"),
    record(P6, "settled", CLOSE - 99 * D, "yes", 1, CLOSE - 100 * D),
    record(P7, "closed", CLOSE, null, null),
    record(K1, "settled", CLOSE + H, "yes", 1),
    record(K2, "settled", CLOSE + H, "yes", 1),
  ]);

  await insertTickRows(stores.writer, [
    book(P1, CLOSE - 2 * D, "0.50", "0.54"),
    change(P1, CLOSE - 3 * H, "0.70", "0.74"),
    change(P1, CLOSE + 10 * 60_000, "0.99", "1.00"), // after the close: never a forecast
    book(P2, CLOSE - 40 * D, "0.30", "0.34"),
    change(P2, CLOSE - 30 * 60_000, "0.05", "0.07"), // inside the last hour: after every horizon's instant
    book(P4, CLOSE - 2 * D, "0.10", "0.12"),
    book(P5, CLOSE - 5 * D, "0.80", "0.84"),
    book(P6, CLOSE - 101 * D, "0.50", "0.52"),
  ]);
  await insertTickRows(stores.writer, [book(K1, CLOSE - 2 * D, "0.40", "0.44"), book(K2, CLOSE - 2 * D, "0.60", "0.64")], kalshiTable);

  const snapshot = (side: Side, atMs: number, price: number) => ({ atMs, venue: side.venue, marketId: marketUuid(side.venue, side.venueMarketId), outcomeId: side.yes, price, bestBid: null, bestAsk: null, volume24h: null });
  await insertPriceSnapshots(stores, [snapshot(P1, CLOSE - 10 * D, 0.4), snapshot(P3, CLOSE - 20 * D, 0.5), snapshot(P3, CLOSE - 12 * H, 0.6), snapshot(P5, CLOSE - 8 * D, 0.6), snapshot(P1, CLOSE + H, 0.99)]);

  const pair = (a: Side, b: Side) => {
    const [x, y] = [marketUuid(a.venue, a.venueMarketId), marketUuid(b.venue, b.venueMarketId)].sort();
    return { marketA: x as string, marketB: y as string, relation: "identity", confidence: 0.97, reasoning: "test pair", engineVersion: "test" };
  };
  await db.insert(marketMatches).values([pair(P1, K1), pair(P2, K2)]);

  ({ key: pro } = await makeKey("pro"));
  ({ key: free } = await makeKey("free"));
  ({ key: enterprise } = await makeKey("enterprise"));
});

async function calibration(query: string, key = pro) {
  return callRoute(calibrationRoute, { path: `/v0/calibration?${query}`, key });
}

// The shared suite tests admission (key, plan, rate limit), which runs before the query string is
// read; it sends a plan's whole rate limit (1,000 requests on Pro), so its request is one the route
// then refuses with a 400 without touching a store. Valid requests are the rest of this file.
describeKeyedRoute({ name: "GET /v0/calibration", handler: calibrationRoute, request: { path: "/v0/calibration?bins=1" }, surface: "v0", plan: "pro" });
describeKeyedRoute({ name: "GET /v0/calibration/markets", handler: calibrationMarketsRoute, request: { path: "/v0/calibration/markets?venue=polymarket" }, surface: "v0", plan: "pro" });

describe("GET /v0/calibration", () => {
  it("scores each market's price at each horizon before its close against its outcome, by hand", async () => {
    const res = await calibration(`venue=polymarket&${window}`);
    expect(res.status).toBe(200);
    const body = res.body as CalibrationResponse;
    const at = (h: string) => body.data.find((f) => f.venue === "polymarket" && f.horizon === h);
    // 1h: P1 book mid .72 (the 3 h change; not the change after the close), P2 book .32 (the change 30 min before the close is after the instant), P3 catalog .6 (a split: .5), P5 book .82 (amended to No).
    const oneHour = [
      [0.72, 1],
      [0.32, 0],
      [0.6, 0.5],
      [0.82, 0],
    ];
    const brier = (list: number[][]) => list.reduce((s, [f, y]) => s + ((f ?? 0) - (y ?? 0)) ** 2, 0) / list.length;
    expect(at("1h")).toMatchObject({ count: 4, sources: { book: 3, catalog: 1 }, unscored: 0 });
    expect(at("1h")?.brier).toBeCloseTo(brier(oneHour), 12);
    expect(at("1h")?.taker.count).toBe(3);
    expect(at("1h")?.taker.brier).toBeCloseTo(brier([[0.74, 1], [0.34, 0], [0.84, 0]]), 12);
    // 1d: P1 .52 (the book two days before), P2 .32, P3 .5 (catalog 20 days before), P5 .82.
    expect(at("1d")?.brier).toBeCloseTo(brier([[0.52, 1], [0.32, 0], [0.5, 0.5], [0.82, 0]]), 12);
    // 7d: P1 catalog .4 (no book that old), P2 .32, P3 .5, P5 catalog .6 (its book is 5 days old).
    expect(at("7d")).toMatchObject({ count: 4, sources: { book: 1, catalog: 3 } });
    expect(at("7d")?.brier).toBeCloseTo(brier([[0.4, 1], [0.32, 0], [0.5, 0.5], [0.6, 0]]), 12);
    // 30d: only P2's book is older than 30 days; P3 (20 days) and the others have nothing that early.
    expect(at("30d")).toMatchObject({ count: 1, unscored: 3 });
    expect(at("30d")?.logLoss).toBeCloseTo(-Math.log(1 - 0.32), 12);

    // Reliability bins at 1h: .32 in bin 3, .6 in bin 6, .72 in bin 7, .82 in bin 8.
    const bins = at("1h")?.bins ?? [];
    expect(bins).toHaveLength(10);
    expect(bins.filter((b) => b.count > 0).map((b) => [b.bin, b.count, b.observedFrequency])).toEqual([
      [3, 1, 0],
      [6, 1, 0.5],
      [7, 1, 1],
      [8, 1, 0],
    ]);
    expect(bins[7]?.wilsonLow).toBeGreaterThan(0);
    expect(bins[7]?.wilsonHigh).toBe(1);
    expect(body.meta).toMatchObject({ bins: 10, horizons: ["1h", "1d", "7d", "30d"], venues: ["polymarket"], logLossEpsilon: 0.001 });
  });

  it("restricts to a category and to chosen horizons and bins", async () => {
    const res = await calibration(`venue=polymarket&category=Sports&horizon=1h,1d&bins=4&${window}`);
    expect(res.status).toBe(200);
    const body = res.body as CalibrationResponse;
    expect(body.data.map((f) => [f.horizon, f.count, f.sources.catalog])).toEqual([
      ["1h", 1, 1],
      ["1d", 1, 1],
    ]);
    expect(body.data[0]?.bins).toHaveLength(4);
    expect(body.data[0]?.bins[2]).toMatchObject({ count: 1, meanForecast: 0.6, observedFrequency: 0.5 });
  });

  it("puts both venues' Brier scores on the identity pairs that resolved alike, and counts the pair that did not", async () => {
    const res = await calibration(`horizon=1h,1d,7d&${window}`);
    const body = res.body as CalibrationResponse;
    expect(body.meta.venues).toEqual(["kalshi", "polymarket"]);
    expect(body.meta.disagreedPairs).toBe(1);
    const h2h = (h: string) => body.headToHead.find((r) => r.horizon === h);
    // kalshi sorts first: A = kalshi (K1 book .42), B = polymarket (P1 .72 at 1h, .52 at 1d); 7d: K1 has no price that early.
    expect(h2h("1h")).toMatchObject({ venueA: "kalshi", venueB: "polymarket", pairs: 1, marketIds: [[marketUuid("kalshi", K1.venueMarketId), marketUuid("polymarket", P1.venueMarketId)]] });
    expect(h2h("1h")?.brierA).toBeCloseTo((1 - 0.42) ** 2, 12);
    expect(h2h("1h")?.brierB).toBeCloseTo((1 - 0.72) ** 2, 12);
    expect(h2h("1d")?.brierB).toBeCloseTo((1 - 0.52) ** 2, 12);
    expect(h2h("7d")).toBeUndefined();
  });

  it("a figure recomputed by hand from the SQL tables (POST /v0/sql) equals the API's", async () => {
    const sql = async <T>(query: string) => {
      const res = await callRoute(sqlRoute, { path: "/v0/sql", key: enterprise, body: { query } });
      expect(res.status).toBe(200);
      return (res.body as { data: T[] }).data;
    };
    const changes = await sql<{ market: string; outcome_ids: string[]; state: string; winning_outcome_id: string | null; settlement_value: number | null; closed_time: string | null; venue_time: string; received_time: string }>(
      "SELECT market, outcome_ids, state, winning_outcome_id, settlement_value, closed_time, venue_time, received_time FROM market_outcomes WHERE venue = 'polymarket'",
    );
    const ms = (text: string) => Date.parse(`${text.replace(" ", "T")}Z`);
    const latest = new Map<string, (typeof changes)[number]>();
    for (const row of changes) {
      const seen = latest.get(row.market);
      if (seen === undefined || ms(row.venue_time) > ms(seen.venue_time) || (ms(row.venue_time) === ms(seen.venue_time) && ms(row.received_time) > ms(seen.received_time))) latest.set(row.market, row);
    }
    const politics = new Set([P1, P2, P4, P5, P6, P7].map((s) => s.market));
    const resolved = [...latest.values()].filter((r) => (r.state === "settled" || r.state === "determined") && r.closed_time !== null && ms(r.closed_time) >= SINCE && ms(r.closed_time) < UNTIL && politics.has(r.market));
    const forecasts: Array<[number, number]> = [];
    for (const r of resolved) {
      const yes = r.outcome_ids[0];
      const outcome = r.settlement_value ?? (r.winning_outcome_id === yes ? 1 : 0);
      const instant = ms(r.closed_time ?? "") - D;
      const rows = await sql<{ timestamp: string; event_type: string; data: string }>(
        `SELECT timestamp, event_type, data FROM polymarket_orderbook_rust WHERE market = '${r.market}' ORDER BY timestamp`,
      );
      let mid: number | undefined;
      for (const row of rows) {
        if (ms(row.timestamp) > instant) break;
        const data = JSON.parse(row.data) as { asset_id: string; bids?: string[][]; asks?: string[][]; best_bid?: string; best_ask?: string };
        if (data.asset_id !== yes) continue;
        const bid = row.event_type === "book" ? Math.max(...(data.bids ?? []).map((l) => Number(l[0]))) : Number(data.best_bid);
        const ask = row.event_type === "book" ? Math.min(...(data.asks ?? []).map((l) => Number(l[0]))) : Number(data.best_ask);
        mid = (bid + ask) / 2;
      }
      if (mid !== undefined) forecasts.push([mid, outcome]);
    }
    expect(forecasts).toHaveLength(3);
    const byHand = forecasts.reduce((s, [f, y]) => s + (f - y) ** 2, 0) / forecasts.length;

    const api = (await calibration(`venue=polymarket&category=Politics&horizon=1d&${window}`)).body as CalibrationResponse;
    expect(api.data[0]).toMatchObject({ venue: "polymarket", horizon: "1d", count: 3, sources: { book: 3, catalog: 0 } });
    expect(api.data[0]?.brier).toBeCloseTo(byHand, 12);
  });

  it.each([
    ["horizon=2w", "horizon"],
    ["horizon=0m", "horizon"],
    ["horizon=366d", "horizon"],
    ["horizon=1h,1d,2d,3d,4d,5d,6d,7d,8d", "horizon"],
    ["bins=1", "bins"],
    ["bins=51", "bins"],
    ["bins=ten", "bins"],
    ["venue=nowhere", "venue"],
    ["category=Gossip", "category"],
    ["since=yesterday", "since"],
    [`since=${UNTIL}&until=${SINCE}`, "since"],
    ["colour=blue", "colour"],
  ])("answers 400 naming the parameter for %s", async (query, parameter) => {
    const res = await calibration(query);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { code: "invalid_parameter", parameter } });
  });

  it("refuses the free plan with 403 naming the plan", async () => {
    const res = await calibration(window, free);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: { code: "forbidden" } });
  });
});

describe("GET /v0/calibration/markets", () => {
  const markets = async (query: string) => callRoute(calibrationMarketsRoute, { path: `/v0/calibration/markets?${query}`, key: pro });

  it("lists the markets behind a figure, oldest close first, with each forecast's source and instant, paged", async () => {
    const first = await markets(`venue=polymarket&horizon=1h&limit=2&${window}`);
    expect(first.status).toBe(200);
    const page = first.body as CalibrationMarketsResponse;
    expect(page.data).toHaveLength(2);
    expect(page.meta.nextCursor).not.toBeNull();
    const second = (await markets(`venue=polymarket&horizon=1h&limit=2&cursor=${page.meta.nextCursor}&${window}`)).body as CalibrationMarketsResponse;
    const all = [...page.data, ...second.data];
    expect(all.map((m) => m.venueMarketId).sort()).toEqual([P1, P2, P3, P5].map((s) => s.venueMarketId).sort());
    expect(second.meta.nextCursor).toBeNull();
    const p1 = all.find((m) => m.venueMarketId === P1.venueMarketId);
    expect(p1).toMatchObject({ marketId: marketUuid("polymarket", P1.venueMarketId), source: "book", forecast: 0.72, takerPrice: 0.74, outcome: 1, bin: 7, title: "Calibration test cal-pm-1" });
    expect(p1?.forecastAt).toBe(new Date(CLOSE - H).toISOString());
    expect(p1?.pricedAt).toBe(new Date(CLOSE - 3 * H).toISOString());
    for (const m of all) expect(Date.parse(m.pricedAt)).toBeLessThanOrEqual(Date.parse(m.forecastAt));
  });

  it("filters by bin and source", async () => {
    const inBin = (await markets(`venue=polymarket&horizon=1h&bin=8&${window}`)).body as CalibrationMarketsResponse;
    expect(inBin.data.map((m) => m.venueMarketId)).toEqual([P5.venueMarketId]);
    const catalog = (await markets(`venue=polymarket&horizon=7d&source=catalog&${window}`)).body as CalibrationMarketsResponse;
    expect(catalog.data.map((m) => m.venueMarketId).sort()).toEqual([P1, P3, P5].map((s) => s.venueMarketId).sort());
  });

  it.each([
    ["horizon=1h", "venue"],
    ["venue=polymarket", "horizon"],
    ["venue=polymarket&horizon=1h,1d", "horizon"],
    ["venue=polymarket&horizon=1h&bin=10", "bin"],
    ["venue=polymarket&horizon=1h&source=guess", "source"],
    ["venue=polymarket&horizon=1h&cursor=abc", "cursor"],
  ])("answers 400 naming the parameter for %s", async (query, parameter) => {
    const res = await markets(query);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { code: "invalid_parameter", parameter } });
  });
});

describe("outcomes audit the identity pairs", () => {
  it("names the pair that resolved differently as a proven false identity on the matching answers", async () => {
    const p2 = marketUuid("polymarket", P2.venueMarketId);
    const res = await callRoute(marketMatchesRoute, { path: `/v0/markets/${p2}/matches`, params: { id: p2 }, key: pro });
    expect(res.status).toBe(200);
    const matches = (res.body as { data: { matches: Array<{ relation: string; outcomes: unknown }> } }).data.matches;
    expect(matches).toEqual([expect.objectContaining({ relation: "identity", outcomes: { verdict: "disagreed", a: 0, b: 1 } })]);

    const compare = await callRoute(matchedMarketsRoute, { path: "/v0/matched-markets?relations=identity&limit=50", key: pro });
    const pairs = (compare.body as { data: Array<{ marketA: { venueMarketId: string }; outcomes: { verdict: string } }> }).data;
    const verdicts = new Map(pairs.map((p) => [p.marketA.venueMarketId, p.outcomes.verdict]));
    expect([verdicts.get(P1.venueMarketId) ?? verdicts.get(K1.venueMarketId), verdicts.get(P2.venueMarketId) ?? verdicts.get(K2.venueMarketId)]).toEqual(["agreed", "disagreed"]);
  });

  it("counts resolved and disagreeing pairs on /v0/status", async () => {
    const res = await callRoute(statusRoute, { path: "/v0/status", key: pro });
    expect((res.body as { pairs: unknown }).pairs).toEqual({ resolved: 2, disagreed: 1 });
  });

  it("lists the proven false identity as a labelled negative for the fit", async () => {
    const negatives = await provenFalseIdentities(await getDb());
    expect(negatives).toHaveLength(1);
    const ids = [marketUuid("polymarket", P2.venueMarketId), marketUuid("kalshi", K2.venueMarketId)];
    expect([negatives[0]?.marketA, negatives[0]?.marketB].sort()).toEqual(ids.sort());
    expect(negatives[0]).toMatchObject({ label: "not_identity", reason: "resolved_differently", engineVersion: "test" });
    expect([...(negatives[0]?.settlements ?? [])].sort()).toEqual([0, 1]);
  });
});
