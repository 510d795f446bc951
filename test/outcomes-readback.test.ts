import { beforeAll, afterAll, describe, expect, it } from "vitest";
import { GET as getMarket } from "@/app/v0/markets/[id]/route";
import { GET as listResolutions } from "@/app/v0/resolutions/route";
import { GET as stream } from "@/app/v0/stream/route";
import { POST as sqlRoute } from "@/app/v0/sql/route";
import { marketPublic } from "@/lib/catalog/shapes";
import { getDb } from "@/lib/db";
import type { ResolutionMessage } from "@/lib/live/bus";
import { getLiveBus } from "@/lib/live/connection";
import type { ResolutionChangePublic } from "@/lib/outcomes/shapes";
import type { ResolutionSink } from "@/lib/outcomes/sink";
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
import { makeEvent, seedCatalog } from "./helpers/catalog";
import { makeKey } from "./helpers/keys";
import { readSseEvents } from "./helpers/sse";
import { callRoute } from "./helpers/routes";

/*
 * Issue 33's "done when": the fakes' resolved, disputed, amended, voided and 50-50 markets, stated
 * in the venues' own wire (Gamma and Kalshi REST sweeps through the loopback fakes, Polymarket's
 * `market_resolved` and Kalshi's `market_lifecycle_v2` frames through the recorders' normalizers),
 * read back exactly, every change in order, through each surface a user reads: REST (GET
 * /v0/resolutions, and each market's `resolution` on GET /v0/markets/{id}), push (GET /v0/stream's
 * `resolution` events of each venue, subscribed before anything was read, and the live bus behind
 * them), and SQL (POST /v0/sql over `market_outcomes`).
 */

const COND = (c: string) => `0x${c.repeat(64)}`;
let fake: FakeOutcomeVenues;
let sink: ResolutionSink;
let polymarket: PolymarketRest;
let kalshi: KalshiRest;
let key: string;
let pushed: ResolutionMessage[];
/** The `resolution` events /v0/stream sent, per venue. */
const streamed = new Map<string, ResolutionChangePublic[]>();

/** One change as every surface must show it: state, the venue's word, winner, value, how learned, venue time. */
type Change = [state: string, venueState: string | null, winner: string | null, value: number | null, learnedBy: string, venueTime: string];

interface Case {
  venue: "polymarket" | "kalshi";
  venueMarketId: string;
  market: string;
  outcomeIds: [string, string];
  closedAt: string;
  changes: Change[];
}

const iso = (text: string) => new Date(text).toISOString();

/** What the venues stated, change by change (worked out from the wire below). */
const cases: Record<string, Case> = {
  resolved: {
    venue: "polymarket",
    venueMarketId: "801",
    market: COND("a"),
    outcomeIds: ["8011", "8012"],
    closedAt: iso("2026-11-02T10:00:00Z"),
    changes: [["settled", "resolved", "8011", 1, "rest", iso("2026-11-02T10:00:00Z")]],
  },
  disputed: {
    venue: "polymarket",
    venueMarketId: "802",
    market: COND("b"),
    outcomeIds: ["8021", "8022"],
    closedAt: iso("2026-11-02T11:00:00Z"),
    changes: [
      ["proposed", "proposed", null, null, "rest", iso("2026-11-02T13:00:00Z")],
      ["disputed", "disputed", null, null, "rest", iso("2026-11-02T15:00:00Z")],
    ],
  },
  amended: {
    venue: "kalshi",
    venueMarketId: "KXRB-AM",
    market: "KXRB-AM",
    outcomeIds: ["KXRB-AM", "KXRB-AM-NO"],
    closedAt: iso("2026-11-01T12:00:00Z"),
    changes: [
      ["determined", "determined", "KXRB-AM", 1, "rest", iso("2026-11-01T13:00:00Z")],
      ["disputed", "disputed", null, null, "rest", iso("2026-11-01T14:00:00Z")],
      ["determined", "amended", "KXRB-AM-NO", 0, "rest", iso("2026-11-01T16:00:00Z")],
    ],
  },
  voided: {
    venue: "kalshi",
    venueMarketId: "KXRB-VO",
    market: "KXRB-VO",
    outcomeIds: ["KXRB-VO", "KXRB-VO-NO"],
    closedAt: iso("2026-11-01T12:00:00Z"),
    changes: [["voided", "finalized", null, null, "rest", iso("2026-11-01T15:00:00Z")]],
  },
  "50-50": {
    venue: "polymarket",
    venueMarketId: "803",
    market: COND("c"),
    outcomeIds: ["8031", "8032"],
    closedAt: iso("2026-11-02T12:00:00Z"),
    changes: [["settled", "resolved", null, 0.5, "rest", iso("2026-11-02T12:00:00Z")]],
  },
  "resolved by push (Polymarket market_resolved)": {
    venue: "polymarket",
    venueMarketId: "804",
    market: COND("d"),
    outcomeIds: ["8041", "8042"],
    closedAt: iso("2026-11-02T13:00:00Z"),
    changes: [
      ["closed", "closed", null, null, "rest", iso("2026-11-02T13:00:00Z")],
      ["settled", "resolved", "8042", 0, "push", iso("2026-11-03T09:00:00Z")],
    ],
  },
  "voided by push (Kalshi market_lifecycle_v2)": {
    venue: "kalshi",
    venueMarketId: "KXRB-PV",
    market: "KXRB-PV",
    outcomeIds: ["KXRB-PV", "KXRB-PV-NO"],
    closedAt: iso("2026-11-01T12:00:00Z"),
    changes: [
      ["closed", "closed", null, null, "rest", iso("2026-11-01T12:00:01Z")],
      ["voided", "finalized", null, null, "push", iso("2026-11-01T18:00:00Z")],
    ],
  },
};

async function sql(query: string): Promise<Array<Record<string, unknown>>> {
  const res = await callRoute(sqlRoute, { path: "/v0/sql", key, body: { query } });
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: Array<Record<string, unknown>> }).data;
}

const record = (records: Parameters<ResolutionSink["record"]>[0]) => sink.record(records);

async function sweep(): Promise<void> {
  await sweepPolymarketOutcomes(polymarket, record);
  await sweepKalshiOutcomes(kalshi, record);
  await sink.flushed();
}

beforeAll(async () => {
  ({ fake, sink, polymarket, kalshi, published: pushed } = await startOutcomeBench(await getLiveBus()));
  ({ key } = await makeKey("enterprise"));
  // Each venue's stream of resolution events, open before any venue is read.
  const streams = await Promise.all(
    (["polymarket", "kalshi"] as const).map(async (venue) => {
      const abort = new AbortController();
      const response = await stream(new Request(`http://localhost/v0/stream?exchange=${venue}&resolutions=*`, { headers: { authorization: `Bearer ${key}` }, signal: abort.signal }), { params: Promise.resolve({}) });
      expect(response.status).toBe(200);
      const expected = Object.values(cases).filter((c) => c.venue === venue).reduce((n, c) => n + c.changes.length, 0);
      const reading = readSseEvents(response, (events) => events.filter((e) => e.event === "resolution").length >= expected);
      return { venue, abort, reading };
    }),
  );
  // The markets in the catalog, as ingestion lists them, so their answers carry `resolution`.
  await seedCatalog(
    Object.values(cases).map((c) =>
      makeEvent({ venue: c.venue }, [
        {
          venueMarketId: c.venueMarketId,
          contractAddress: c.venue === "polymarket" ? c.market : null,
          outcomes: c.outcomeIds.map((outcomeId, i) => ({ outcomeId, label: i === 0 ? "Yes" : "No", price: 0.5, priceChange24h: 0 })),
        },
      ]),
    ),
  );

  // Gamma: resolved Yes (payout 1/0), a 50-50 (0.5/0.5), a proposal later disputed, a market closed with nothing proposed (resolved by push below).
  fake.gamma = [
    gammaMarket("801", COND("a"), ["8011", "8012"], { closedTime: "2026-11-02 10:00:00+00", umaResolutionStatus: "resolved", outcomePrices: '["1","0"]' }),
    gammaMarket("802", COND("b"), ["8021", "8022"], { closedTime: "2026-11-02 11:00:00+00", umaResolutionStatus: "proposed", outcomePrices: '["0.97","0.03"]', updatedAt: "2026-11-02T13:00:00Z" }),
    gammaMarket("803", COND("c"), ["8031", "8032"], { closedTime: "2026-11-02 12:00:00+00", umaResolutionStatus: "resolved", outcomePrices: '["0.5","0.5"]' }),
    gammaMarket("804", COND("d"), ["8041", "8042"], { closedTime: "2026-11-02 13:00:00+00", outcomePrices: '["0.99","0.01"]' }),
  ];
  // Kalshi: a determination later disputed and amended, a void, a closed market voided by push below.
  fake.kalshi = [
    kalshiMarket("KXRB-AM", { status: "determined", result: "yes", settlement_value_dollars: "1.0000", updated_time: "2026-11-01T13:00:00Z" }),
    kalshiMarket("KXRB-VO", { status: "finalized", result: "void", settlement_ts: "2026-11-01T15:00:00Z" }),
    kalshiMarket("KXRB-PV", { status: "closed" }),
  ];
  await sweep();
  // The dispute, then the amendment, each read by the next sweep.
  Object.assign(fake.gamma[1] ?? {}, { umaResolutionStatus: "disputed", updatedAt: "2026-11-02T15:00:00Z" });
  Object.assign(fake.kalshi[0] ?? {}, { status: "disputed", updated_time: "2026-11-01T14:00:00Z" });
  await sweep();
  Object.assign(fake.kalshi[0] ?? {}, { status: "amended", result: "no", settlement_value_dollars: "0.0000", updated_time: "2026-11-01T16:00:00Z" });
  await sweep();
  // Push: Polymarket's market_resolved, Kalshi's lifecycle settlement with a void result, each as its channel frames it.
  const frame = normalizeFrame(
    JSON.stringify([{ event_type: "market_resolved", id: "804", market: COND("d"), assets_ids: ["8041", "8042"], winning_asset_id: "8042", winning_outcome: "No", timestamp: String(Date.parse("2026-11-03T09:00:00Z")) }]),
    Date.now(),
  );
  marketResolvedSink(await getDb(), sink)(frame.lifecycle ?? [], Date.now());
  const kalshiFrame = new KalshiNormalizer().normalize(
    JSON.stringify({ type: "market_lifecycle_v2", sid: 3, msg: { market_ticker: "KXRB-PV", event_type: "settled", result: "void", settled_ts: Date.parse("2026-11-01T18:00:00Z") / 1000 } }),
    Date.now(),
  );
  expect(kalshiFrame.malformed).toBe(0);
  lifecycleSink(sink)(kalshiFrame.lifecycle ?? [], Date.now());
  await sink.flushed();
  // A sweep that reads the same statements again changes nothing on any surface.
  await sweep();
  for (const { venue, abort, reading } of streams) {
    const events = await reading;
    abort.abort();
    streamed.set(venue, events.filter((e) => e.event === "resolution").map((e) => e.data as ResolutionChangePublic));
  }
}, 60_000);

afterAll(async () => {
  await fake.close();
});

describe.each(Object.entries(cases))("the %s market reads back exactly", (_name, c) => {
  const expected = () => c.changes.map(([state, venueState, winner, value, learnedBy, venueTime]) => ({ state, venueState, winner, value, learnedBy, venueTime }));

  it("through REST: GET /v0/resolutions lists every change in order, and the market's resolution is the last", async () => {
    const res = await callRoute(listResolutions, { path: `/v0/resolutions?venue=${c.venue}&limit=1000`, key });
    expect(res.status, res.text).toBe(200);
    const own = (res.body as { data: ResolutionChangePublic[] }).data.filter((change) => change.market === c.market);
    expect(own.map((ch) => ({ state: ch.state, venueState: ch.venueState, winner: ch.winningOutcomeId, value: ch.settlementValue, learnedBy: ch.learnedBy, venueTime: ch.venueTime }))).toEqual(expected());
    for (const ch of own) expect([ch.venueMarketId, ch.outcomeIds, ch.closedAt, ch.synthetic]).toEqual([c.venueMarketId, c.outcomeIds, c.closedAt, false]);

    const answer = await callRoute(getMarket, { path: `/v0/markets/${c.venueMarketId}`, key, params: { id: c.venueMarketId } });
    expect(answer.status, answer.text).toBe(200);
    const [state, venueState, winner, value, learnedBy] = c.changes.at(-1) ?? [];
    expect(marketPublic.parse((answer.body as { data: unknown }).data).resolution).toMatchObject({ state, venueState, winningOutcomeId: winner, settlementValue: value, learnedBy, closedAt: c.closedAt, synthetic: false });
  });

  it("through push: GET /v0/stream sends one resolution event per change, in order, as the live bus carried it", () => {
    const sent = (streamed.get(c.venue) ?? []).filter((e) => e.market === c.market);
    expect(sent.map((e) => ({ state: e.state, venueState: e.venueState, winner: e.winningOutcomeId, value: e.settlementValue, learnedBy: e.learnedBy, venueTime: e.venueTime }))).toEqual(expected());
    for (const e of sent) expect([e.venueMarketId, e.outcomeIds, e.closedAt, e.synthetic]).toEqual([c.venueMarketId, c.outcomeIds, c.closedAt, false]);
    const own = pushed.filter((m) => m.venue === c.venue && m.market === c.market);
    expect(own.map((m) => ({ state: m.state, venueState: m.venueState, winner: m.winningOutcomeId, value: m.settlementValue, learnedBy: m.source, venueTime: new Date(m.venueTime).toISOString() }))).toEqual(expected());
    for (const m of own) expect([m.venueMarketId, m.outcomeIds, m.closedAt === null ? null : new Date(m.closedAt).toISOString()]).toEqual([c.venueMarketId, c.outcomeIds, c.closedAt]);
  });

  it("through SQL: one market_outcomes row per change, nothing overwritten", async () => {
    const rows = await sql(
      `SELECT state, venue_state, winning_outcome_id, settlement_value, source, toUnixTimestamp64Milli(venue_time) AS venue_ms, toUnixTimestamp64Milli(closed_time) AS closed_ms, venue_market_id, outcome_ids
       FROM market_outcomes WHERE venue = '${c.venue}' AND market = '${c.market}' ORDER BY venue_time, received_time`,
    );
    expect(
      rows.map((r) => ({ state: r.state, venueState: r.venue_state === "" ? null : r.venue_state, winner: r.winning_outcome_id, value: r.settlement_value, learnedBy: r.source, venueTime: new Date(Number(r.venue_ms)).toISOString() })),
    ).toEqual(expected());
    for (const r of rows) expect([r.venue_market_id, r.outcome_ids, new Date(Number(r.closed_ms)).toISOString()]).toEqual([c.venueMarketId, c.outcomeIds, c.closedAt]);
  });
});
