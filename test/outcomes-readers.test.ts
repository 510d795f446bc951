import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/v0/sql/route";
import { getDb } from "@/lib/db";
import type { ResolutionMessage } from "@/lib/live/bus";
import type { ResolutionSink } from "@/lib/outcomes/sink";
import { currentOutcomes, outcomeKey } from "@/lib/outcomes/store";
import { KalshiNormalizer } from "@/lib/recorder/kalshi/normalize";
import { sweepKalshiOutcomes } from "@/lib/recorder/kalshi/outcomes";
import type { KalshiRest } from "@/lib/recorder/kalshi/rest";
import { lifecycleSink } from "@/lib/recorder/kalshi/service";
import { normalizeFrame } from "@/lib/recorder/polymarket/normalize";
import { sweepPolymarketOutcomes } from "@/lib/recorder/polymarket/outcomes";
import type { PolymarketRest } from "@/lib/recorder/polymarket/rest";
import { marketResolvedSink } from "@/lib/recorder/polymarket/service";
import { gammaMarket, kalshiMarket, type FakeOutcomeVenues } from "./fakes/outcome-venues";
import { startOutcomeBench } from "./helpers/outcome-readers";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

/*
 * Both venues' outcome readers against loopback fakes of their wire: REST sweeps (Gamma keyset,
 * Kalshi /markets and /historical/markets) and push (market_resolved, market_lifecycle_v2), read
 * back exactly from PostgreSQL, ClickHouse through POST /v0/sql, and the live bus.
 */

const COND = (c: string) => `0x${c.repeat(64)}`;
let fake: FakeOutcomeVenues;
let sink: ResolutionSink;
let polymarket: PolymarketRest;
let kalshi: KalshiRest;
let key: string;
let published: ResolutionMessage[];

async function sql(query: string): Promise<Array<Record<string, unknown>>> {
  const res = await callRoute(POST, { path: "/v0/sql", key, body: { query } });
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: Array<Record<string, unknown>> }).data;
}

const record = (records: Parameters<ResolutionSink["record"]>[0]) => sink.record(records);

beforeAll(async () => {
  ({ fake, sink, polymarket, kalshi, published: published } = await startOutcomeBench());
  ({ key } = await makeKey("enterprise"));
  fake.gamma = [
    // Resolved Yes: UMA resolved, the payout vector 1/0.
    gammaMarket("701", COND("1"), ["7011", "7012"], { closedTime: "2026-11-02 10:00:00+00", umaResolutionStatus: "resolved", outcomePrices: '["1","0"]', resolutionSource: "https://example.org/a" }),
    // A 50-50 split.
    gammaMarket("702", COND("2"), ["7021", "7022"], { closedTime: "2026-11-02 11:00:00+00", umaResolutionStatus: "resolved", outcomePrices: '["0.5","0.5"]' }),
    // Proposed (then disputed, then resolved No, below).
    gammaMarket("703", COND("3"), ["7031", "7032"], { closedTime: "2026-11-02 12:00:00+00", umaResolutionStatus: "proposed", outcomePrices: '["0.97","0.03"]', updatedAt: "2026-11-02T13:00:00Z" }),
    // Closed, nothing proposed yet; its prices are a market's, never a result.
    gammaMarket("704", COND("4"), ["7041", "7042"], { closedTime: "2026-11-02 13:00:00+00", outcomePrices: '["0.99","0.01"]' }),
    // Open markets are not listed by closed=true.
    gammaMarket("705", COND("5"), ["7051", "7052"], { closed: false }),
  ];
  fake.kalshi = [
    kalshiMarket("KXA-1", { status: "determined", result: "yes", settlement_value_dollars: "1.0000", updated_time: "2026-11-01T13:00:00Z" }),
    kalshiMarket("KXV-1", { status: "finalized", result: "void", settlement_ts: "2026-11-01T15:00:00Z" }),
    kalshiMarket("KXC-1", { status: "closed" }),
    kalshiMarket("KXO-1", { status: "active" }),
  ];
  fake.kalshiHistorical = [kalshiMarket("KXH-1", { status: "finalized", result: "no", settlement_value_dollars: "0.0000", settlement_ts: "2026-01-05T00:00:00Z", close_time: "2026-01-04T00:00:00Z" })];
  await sweepPolymarketOutcomes(polymarket, record);
  await sweepKalshiOutcomes(kalshi, record);
});

afterAll(async () => {
  await fake.close();
});

describe("the REST sweep", () => {
  it("pages Gamma's closed markets by keyset cursor and Kalshi's closed, settled and historical listings", () => {
    expect(fake.requests.filter((r) => r.startsWith("/gamma"))).toEqual(["/gamma/markets/keyset?closed=true&limit=100"]);
    const kalshiPaths = fake.requests.filter((r) => r.startsWith("/kalshi")).map((r) => r.replace("/kalshi/trade-api/v2", ""));
    expect(kalshiPaths).toEqual(["/markets?status=closed&limit=1000", "/markets?status=settled&limit=1000", "/historical/markets?limit=1000"]);
  });

  it("records what each venue stated, and never a winner from a price", async () => {
    const current = await currentOutcomes(await getDb(), [
      { venue: "polymarket", venueMarketId: "701" },
      { venue: "polymarket", venueMarketId: "702" },
      { venue: "polymarket", venueMarketId: "703" },
      { venue: "polymarket", venueMarketId: "704" },
      { venue: "kalshi", venueMarketId: "KXA-1" },
      { venue: "kalshi", venueMarketId: "KXV-1" },
      { venue: "kalshi", venueMarketId: "KXC-1" },
      { venue: "kalshi", venueMarketId: "KXH-1" },
    ]);
    const view = (venue: string, id: string) => {
      const o = current.get(outcomeKey(venue, id));
      return o === undefined ? undefined : [o.state, o.winningOutcomeId, o.settlementValue, o.source];
    };
    expect(view("polymarket", "701")).toEqual(["settled", "7011", 1, "rest"]);
    expect(current.get(outcomeKey("polymarket", "701"))?.resolutionSource).toBe("https://example.org/a");
    expect(current.get(outcomeKey("polymarket", "701"))?.closedAt).toEqual(new Date("2026-11-02T10:00:00Z"));
    expect(view("polymarket", "702")).toEqual(["settled", null, 0.5, "rest"]);
    expect(view("polymarket", "703")).toEqual(["proposed", null, null, "rest"]);
    expect(view("polymarket", "704")).toEqual(["closed", null, null, "rest"]);
    expect(view("kalshi", "KXA-1")).toEqual(["determined", "KXA-1", 1, "rest"]);
    expect(view("kalshi", "KXV-1")).toEqual(["voided", null, null, "rest"]);
    expect(view("kalshi", "KXC-1")).toEqual(["closed", null, null, "rest"]);
    expect(view("kalshi", "KXH-1")).toEqual(["settled", "KXH-1-NO", 0, "historical"]);
    expect(current.has(outcomeKey("kalshi", "KXO-1"))).toBe(false);
  });

  it("keeps every earlier state through a dispute after a proposal and a Kalshi amendment", async () => {
    const at = (market: Record<string, unknown> | undefined, fields: Record<string, unknown>) => Object.assign(market ?? {}, fields);
    at(fake.gamma[2], { umaResolutionStatus: "disputed", updatedAt: "2026-11-02T15:00:00Z" });
    at(fake.kalshi[0], { status: "disputed", updated_time: "2026-11-01T14:00:00Z" });
    await sweepPolymarketOutcomes(polymarket, record);
    await sweepKalshiOutcomes(kalshi, record);
    at(fake.gamma[2], { umaResolutionStatus: "resolved", outcomePrices: '["0","1"]', updatedAt: "2026-11-03T15:00:00Z" });
    at(fake.kalshi[0], { status: "amended", result: "no", settlement_value_dollars: "0.0000", updated_time: "2026-11-01T16:00:00Z" });
    await sweepPolymarketOutcomes(polymarket, record);
    await sweepKalshiOutcomes(kalshi, record);
    // A sweep that finds nothing new writes nothing.
    const before = (await sql("SELECT count() AS n FROM market_outcomes WHERE venue IN ('polymarket', 'kalshi')"))[0]?.n;
    await sweepPolymarketOutcomes(polymarket, record);
    await sweepKalshiOutcomes(kalshi, record);
    expect((await sql("SELECT count() AS n FROM market_outcomes WHERE venue IN ('polymarket', 'kalshi')"))[0]?.n).toBe(before);

    expect(await sql(`SELECT state, venue_state, winning_outcome_id, settlement_value FROM market_outcomes WHERE venue = 'polymarket' AND market = '${COND("3")}' ORDER BY venue_time`)).toEqual([
      { state: "proposed", venue_state: "proposed", winning_outcome_id: null, settlement_value: null },
      { state: "disputed", venue_state: "disputed", winning_outcome_id: null, settlement_value: null },
      { state: "settled", venue_state: "resolved", winning_outcome_id: "7032", settlement_value: 0 },
    ]);
    expect(await sql("SELECT state, venue_state, winning_outcome_id, settlement_value FROM market_outcomes WHERE venue = 'kalshi' AND market = 'KXA-1' ORDER BY venue_time")).toEqual([
      { state: "determined", venue_state: "determined", winning_outcome_id: "KXA-1", settlement_value: 1 },
      { state: "disputed", venue_state: "disputed", winning_outcome_id: null, settlement_value: null },
      { state: "determined", venue_state: "amended", winning_outcome_id: "KXA-1-NO", settlement_value: 0 },
    ]);
    const current = await currentOutcomes(await getDb(), [{ venue: "kalshi", venueMarketId: "KXA-1" }]);
    expect(current.get(outcomeKey("kalshi", "KXA-1"))).toMatchObject({ state: "determined", venueState: "amended", winningOutcomeId: "KXA-1-NO", changes: 3 });
  });
});

describe("push", () => {
  it("records Polymarket's market_resolved from the market channel's frame, and publishes it live", async () => {
    const frame = normalizeFrame(
      JSON.stringify([
        { event_type: "market_resolved", id: "704", market: COND("4"), assets_ids: ["7041", "7042"], winning_asset_id: "7042", winning_outcome: "No", timestamp: String(Date.parse("2026-11-03T09:00:00Z")) },
      ]),
      Date.now(),
    );
    expect(frame.rows).toEqual([]);
    expect(frame.lifecycle).toHaveLength(1);
    published.length = 0;
    marketResolvedSink(await getDb(), sink)(frame.lifecycle ?? [], Date.now());
    await until(() => published.length > 0);
    expect(published.map((m) => [m.venue, m.market, m.state, m.winningOutcomeId, m.settlementValue, m.source])).toEqual([["polymarket", COND("4"), "settled", "7042", 0, "push"]]);
    expect(await sql(`SELECT state, winning_outcome_id, source FROM market_outcomes WHERE venue = 'polymarket' AND market = '${COND("4")}' ORDER BY venue_time`)).toEqual([
      { state: "closed", winning_outcome_id: null, source: "rest" },
      { state: "settled", winning_outcome_id: "7042", source: "push" },
    ]);
  });

  it("records Kalshi's market_lifecycle_v2 determination and settlement from the channel's frames", async () => {
    const normalizer = new KalshiNormalizer();
    const sinkOf = lifecycleSink(sink);
    published.length = 0;
    for (const msg of [
      { market_ticker: "KXC-1", event_type: "determined", result: "yes", settlement_value: "1.0000", determination_ts: Date.parse("2026-11-01T13:00:00Z") / 1000 },
      { market_ticker: "KXC-1", event_type: "settled", result: "yes", settlement_value: "1.0000", settled_ts: Date.parse("2026-11-01T14:00:00Z") / 1000 },
      { market_ticker: "KXC-1", event_type: "close_date_updated", close_ts: Date.parse("2026-11-01T12:00:00Z") / 1000 },
    ]) {
      const frame = normalizer.normalize(JSON.stringify({ type: "market_lifecycle_v2", sid: 9, msg }), Date.now());
      expect(frame.malformed).toBe(0);
      sinkOf(frame.lifecycle ?? [], Date.now());
    }
    await sink.flushed();
    expect(published.map((m) => [m.state, m.winningOutcomeId, m.source])).toEqual([
      ["determined", "KXC-1", "push"],
      ["settled", "KXC-1", "push"],
    ]);
    const current = await currentOutcomes(await getDb(), [{ venue: "kalshi", venueMarketId: "KXC-1" }]);
    expect(current.get(outcomeKey("kalshi", "KXC-1"))).toMatchObject({
      state: "settled",
      winningOutcomeId: "KXC-1",
      settlementValue: 1,
      determinedAt: new Date("2026-11-01T13:00:00Z"),
      settledAt: new Date("2026-11-01T14:00:00Z"),
      closedAt: new Date("2026-11-01T12:00:00Z"),
    });
  });
});

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
