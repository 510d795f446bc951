import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { recorderIncidents, recorderRuns } from "@/lib/db/schema";
import { parseQuery } from "@/lib/input";
import { runMode } from "@/lib/recorder/journal";
import { KalshiNormalizer } from "@/lib/recorder/kalshi/normalize";
import { normalizeFrame } from "@/lib/recorder/polymarket/normalize";
import { insertTickRows } from "@/lib/recorder/writer";
import { recordResolutions } from "@/lib/outcomes/store";
import type { ResolutionRecord } from "@/lib/outcomes/types";
import { getPairSpreads, listFeeSchedules } from "@/lib/spreads/service";
import { spreadsQuery } from "@/lib/spreads/shapes";
import { getTickStores, requestTickReader } from "@/lib/ticks";
import { recordedVenueTables } from "@/lib/ticks/published";
import { makeEvent, seedCatalog } from "./helpers/catalog";
import { startFakeFeeVenues, type FakeFeeVenues } from "./fakes/fee-venues";

/**
 * Each market's own fee (docs/spreads.md, "Fees"): a pair whose fees are read from the loopback
 * venues' fee fields (Polymarket's feeSchedule on the Gamma market, Kalshi's series fee_type and
 * fee_multiplier with an event override taking effect inside the window), stored dated, and
 * each point priced with the fee in force at its instant; a market whose fields are missing is
 * priced by the table's upper bound, and GET /v0/fees shows both.
 */

const T0 = Date.UTC(2026, 6, 31, 23, 50, 0);
const OVERRIDE = Date.UTC(2026, 7, 1, 0, 0, 0);
const END = T0 + 20 * 60_000;
const NOW = END + 60_000;
const CONDITION = `0x${"3c".repeat(32)}`;
const YES = "6600000000000000000000000000000000000000000000000000000000000000000000000001";
const NO = "6600000000000000000000000000000000000000000000000000000000000000000000000002";
const BARE_CONDITION = `0x${"3d".repeat(32)}`;
const TICKER = "KXFEEPAIR-26AUG01-T50";
const EVENT = "KXFEEPAIR-26AUG01";

let venues: FakeFeeVenues;

beforeAll(async () => {
  venues = await startFakeFeeVenues({
    gammaMarkets: [
      // A sports market created under the 0.05 schedule (the table's sports rate is 0.03).
      { id: "501", conditionId: CONDITION, question: "Fee pair?", createdAt: "2026-07-20T00:00:00Z", feesEnabled: true, feeSchedule: { rate: 0.05, exponent: 1, takerOnly: true, rebateRate: 0.25 } },
      // A market whose fee fields are missing.
      { id: "502", conditionId: BARE_CONDITION, question: "Bare?", createdAt: "2026-07-20T00:00:00Z" },
    ],
    kalshiMarkets: { [TICKER]: { ticker: TICKER, event_ticker: EVENT, status: "active", fee_waiver_expiration_time: null } },
    kalshiEvents: { [EVENT]: { event_ticker: EVENT, series_ticker: "KXFEEPAIR", title: "Fee pair" } },
    kalshiSeries: { KXFEEPAIR: { ticker: "KXFEEPAIR", title: "Fee pair", fee_type: "quadratic", fee_multiplier: 1 } },
    seriesFeeChanges: [],
    eventFeeChanges: [
      { event_ticker: EVENT, fee_type_override: "quadratic", fee_multiplier_override: 0.25, scheduled_ts: new Date(OVERRIDE).toISOString() },
      { event_ticker: "KXOTHER-26AUG01", fee_type_override: "quadratic", fee_multiplier_override: 2, scheduled_ts: new Date(T0).toISOString() },
      { event_ticker: EVENT, fee_type_override: "quadratic", fee_multiplier_override: 0.5, scheduled_ts: new Date(END + 86_400_000).toISOString() },
    ],
  });
  await seedCatalog([
    makeEvent({ venue: "polymarket", category: "Sports" }, [
      { venueMarketId: "fee-poly", contractAddress: CONDITION, outcomes: [{ outcomeId: YES, label: "Yes", price: 0.4, priceChange24h: 0 }, { outcomeId: NO, label: "No", price: 0.6, priceChange24h: 0 }] },
      { venueMarketId: "fee-bare", contractAddress: BARE_CONDITION, outcomes: [{ outcomeId: "bare-yes", label: "Yes", price: 0.5, priceChange24h: 0 }, { outcomeId: "bare-no", label: "No", price: 0.5, priceChange24h: 0 }] },
    ]),
    makeEvent({ venue: "kalshi", category: "Economics" }, [{ venue: "kalshi", venueMarketId: TICKER, contractAddress: null, outcomes: [{ outcomeId: TICKER, label: "Yes", price: 0.45, priceChange24h: 0 }, { outcomeId: `${TICKER}-NO`, label: "No", price: 0.55, priceChange24h: 0 }] }]),
  ]);
  // One level a side on each venue, unchanged: A asks 0.40, B bids 0.45 (the aToB direction).
  const book = (asset: string, bids: [string, string][], asks: [string, string][], ts: number) => ({ market: CONDITION, asset_id: asset, timestamp: String(ts), hash: "", bids: bids.map(([price, size]) => ({ price, size })), asks: asks.map(([price, size]) => ({ price, size })), tick_size: "0.01", event_type: "book" });
  const polyRows = [T0 + 1_000, OVERRIDE + 60_000].flatMap((ts) => normalizeFrame(JSON.stringify([book(YES, [["0.38", "1000"]], [["0.40", "1000"]], ts), book(NO, [["0.60", "1000"]], [["0.62", "1000"]], ts)]), ts).rows);
  const kalshi = new KalshiNormalizer();
  const kalshiRows = [T0 + 2_000, OVERRIDE + 90_000].flatMap((ts, i) =>
    kalshi.normalize(JSON.stringify({ type: "orderbook_snapshot", sid: 1, seq: i + 1, msg: { market_ticker: TICKER, market_id: "fee", yes_dollars_fp: [["0.4500", "1000.00"]], no_dollars_fp: [["0.5300", "1000.00"]] } }), ts).rows,
  );
  const { writer } = await getTickStores();
  await insertTickRows(writer, polyRows, recordedVenueTables.polymarket);
  await insertTickRows(writer, kalshiRows, recordedVenueTables.kalshi);
  const db = await getDb();
  for (const [venue, assets] of [["polymarket", [YES, NO]], ["kalshi", [TICKER, `${TICKER}-NO`]]] as const) {
    const id = randomUUID();
    await db.insert(recorderRuns).values({ id, host: "fees-test", pid: 1, mode: runMode("in-process", venue), startedAt: new Date(T0), beatAt: new Date(END), stoppedAt: new Date(END), counters: {} });
    await db.insert(recorderIncidents).values({ runId: id, kind: "assets_added", startedAt: new Date(T0), assets: [...assets], message: "subscribed", detail: {} });
  }
}, 60_000);

afterAll(async () => {
  await venues.close();
});

const readers = () => ({ gamma: venues.gamma, kalshi: venues.kalshi });

describe("each market's own fee, read from its venue's fields and kept dated", () => {
  it("prices every point with the fee in force at its instant: Polymarket's feeSchedule, Kalshi's series fee, then the event's override", async () => {
    const page = await getPairSpreads(await getDb(), requestTickReader(), "fee-poly", TICKER, parseQuery(spreadsQuery, new URLSearchParams({ since: String(T0), until: String(END), size: "100", limit: "5000" })), NOW, readers());
    expect(page.meta.pair.a.fee).toMatchObject({ known: true, basis: "market", takerRate: "0.05", schedule: "polymarket-market" });
    expect(page.meta.pair.b.fee).toMatchObject({ known: true, basis: "market", takerRate: "0.0175", schedule: "kalshi-market" });
    const known = page.data.filter((p) => p.known);
    const before = known.filter((p) => p.t < OVERRIDE);
    const after = known.filter((p) => p.t >= OVERRIDE);
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    // The override's instant is a point: the fee changes there.
    expect(after[0]?.t).toBe(OVERRIDE);
    // Buy 100 on Polymarket at 0.40: 0.05 × 100 × 0.4 × 0.6 = $1.2. Sell 100 on Kalshi at 0.45:
    // before the override 0.07 × 100 × 0.45 × 0.55 = $1.7325, the balance 45 − 1.7325 floored to
    // the cent: $1.74; after it 0.0175 × … = $0.433125 -> $0.4332, the balance floored: $0.44.
    for (const point of before) expect(point.net?.aToB.fees).toBe(2.94);
    for (const point of after) expect(point.net?.aToB.fees).toBe(1.64);
    // Read once each, then served from market_fees.
    const reads = venues.requests.length;
    await getPairSpreads(await getDb(), requestTickReader(), "fee-poly", TICKER, parseQuery(spreadsQuery, new URLSearchParams({ since: String(T0), until: String(END) })), NOW + 1_000, readers());
    expect(venues.requests.length).toBe(reads);
    // The event's overrides were read page by page (one a page).
    expect(venues.requests.filter((r) => r.startsWith("/kalshi/trade-api/v2/events/fee_changes")).length).toBe(2);
  });

  it("GET /v0/fees shows the table and, for a market, its own dated versions and the fee in force", async () => {
    const db = await getDb();
    const kalshiFees = await listFeeSchedules(db, OVERRIDE - 1, TICKER, NOW, readers());
    expect(kalshiFees.data.some((v) => v.id === "kalshi-2026-03" && v.inForce)).toBe(true);
    expect(kalshiFees.meta.market?.inForce).toMatchObject({ basis: "market", takerRate: "0.07" });
    expect(kalshiFees.meta.market?.versions.map((v) => [v.from, v.takerRate])).toEqual([
      [null, "0.07"],
      [OVERRIDE, "0.0175"],
      [END + 86_400_000, "0.035"],
    ]);
    const poly = await listFeeSchedules(db, OVERRIDE, "fee-poly", NOW, readers());
    expect(poly.meta.market?.inForce).toMatchObject({ basis: "market", takerRate: "0.05" });
  });

  it("shows both markets' recorded settlements and how the spread closed", async () => {
    const db = await getDb();
    const query = parseQuery(spreadsQuery, new URLSearchParams({ since: String(T0), until: String(END) }));
    const before = await getPairSpreads(db, requestTickReader(), "fee-poly", TICKER, query, NOW, readers());
    expect(before.meta.pair.a.settlement).toBeNull();
    expect(before.meta.pair.closed).toBeNull();
    const settled = (fields: Partial<ResolutionRecord> & Pick<ResolutionRecord, "venue" | "venueMarketId" | "market" | "outcomeIds">): ResolutionRecord => ({
      state: "settled",
      venueState: "resolved",
      winningOutcomeId: null,
      settlementValue: null,
      closedAt: new Date(END),
      venueTime: new Date(END + 3_600_000),
      receivedAt: new Date(END + 3_600_000),
      settledAt: new Date(END + 3_600_000),
      source: "rest",
      resolutionSource: null,
      raw: "{}",
      ...fields,
    });
    const { writer } = await getTickStores();
    // Polymarket's Yes won; Kalshi's market settled No (a settlement value of 0 for its Yes).
    await recordResolutions(db, writer, [
      settled({ venue: "polymarket", venueMarketId: "fee-poly", market: CONDITION, outcomeIds: [YES, NO], winningOutcomeId: YES }),
      settled({ venue: "kalshi", venueMarketId: TICKER, market: TICKER, outcomeIds: [TICKER, `${TICKER}-NO`], winningOutcomeId: `${TICKER}-NO`, settlementValue: 0 }),
    ]);
    const after = await getPairSpreads(db, requestTickReader(), "fee-poly", TICKER, query, NOW, readers());
    expect(after.meta.pair.a.settlement).toMatchObject({ state: "settled", winningOutcomeId: YES, pays: 1 });
    expect(after.meta.pair.b.settlement).toMatchObject({ state: "settled", pays: 0 });
    expect(after.meta.pair.closed).toEqual({ aPays: 1, bPays: 0, difference: 1 });
  });

  it("falls back to the table's upper bound only where the market's fields are missing, and says why", async () => {
    const bare = await listFeeSchedules(await getDb(), OVERRIDE, "fee-bare", NOW, readers());
    expect(bare.meta.market?.versions).toEqual([]);
    expect(bare.meta.market?.error).toMatch(/no feesEnabled/);
    expect(bare.meta.market?.inForce).toMatchObject({ basis: "upper_bound", takerRate: "0.03", schedule: "polymarket-2026-03-30" });
  });
});
