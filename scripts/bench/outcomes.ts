/**
 * bench:outcomes — issue 33's "Measure" figures (docs/outcomes.md, "Benchmark"), in one process on
 * embedded stores in a temp dir, each section against a baseline measured in the same run:
 *
 *  (1) calibration: GET /v0/calibration over `--calibration-markets` (default 1,000,000) resolved
 *      markets × 4 horizons from recorded data vs one hand-written ClickHouse query computing the
 *      same figures (./outcomes-calibration.ts; the ratio, target ≤ 1.5×).
 *  (2) the REST sweep of `--sweep-markets` (default 100,000) closed markets per venue through the
 *      loopback fakes of both venues' wire (test/fakes/outcome-venues.ts: Gamma /markets/keyset,
 *      Kalshi /markets closed|settled) into both stores (the readers, the ResolutionSink: PostgreSQL
 *      and ClickHouse), in markets/s, vs the same pages fetched and parsed with nothing done to them.
 *  (3) a resolution event from the venue's channel to a GET /v0/stream client: `--events` (default
 *      500) Polymarket `market_resolved` frames sent one at a time on the loopback market channel,
 *      read by the recorder, recorded by the sink, published on the live bus and written by the
 *      stream hub to an SSE client with `resolutions=*` (p50/p99/max ms), with the part up to the
 *      bus (the record written to both stores) measured apart.
 *
 *   npm run bench:outcomes [-- --sections calibration,sweep,stream --calibration-markets 1000000
 *     --calibration-runs 3 --sweep-markets 100000 --events 500]
 */
import { parseArgs } from "node:util";
import { benchDataDir, printTable, summarize, timed } from "./lib/harness";
import { loadLine } from "./lib/memory";

const { values } = parseArgs({
  options: {
    sections: { type: "string", default: "calibration,sweep,stream" },
    "calibration-markets": { type: "string", default: "1000000" },
    "calibration-runs": { type: "string", default: "3" },
    "calibration-profile": { type: "boolean", default: false },
    "sweep-markets": { type: "string", default: "100000" },
    events: { type: "string", default: "500" },
  },
});
const SECTIONS = new Set((values.sections ?? "").split(",").map((s) => s.trim()));
const SWEEP_MARKETS = Number(values["sweep-markets"]);
const EVENTS = Number(values.events);

const { remove: removeDataDir } = benchDataDir("outcomes", { inProcess: true, env: { RATE_LIMIT_ENTERPRISE: "100000000" } });

const rate = (n: number, ms: number) => Math.round(n / (ms / 1000)).toLocaleString("en-US");

/** (2) Both venues' sweeps through the loopback fakes, against fetching the same pages alone. */
async function sweepSection(): Promise<void> {
  const { startFakeOutcomeVenues, gammaMarket, kalshiMarket } = await import("../../test/fakes/outcome-venues");
  const { getDb } = await import("@/lib/db");
  const { getTickStores } = await import("@/lib/ticks");
  const { ResolutionSink } = await import("@/lib/outcomes/sink");
  const { PolymarketRest } = await import("@/lib/recorder/polymarket/rest");
  const { KalshiRest } = await import("@/lib/recorder/kalshi/rest");
  const { sweepPolymarketOutcomes } = await import("@/lib/recorder/polymarket/outcomes");
  const { sweepKalshiOutcomes } = await import("@/lib/recorder/kalshi/outcomes");
  console.log(`\n## REST sweep: ${SWEEP_MARKETS.toLocaleString("en-US")} closed markets per venue (${loadLine("at start")})`);
  const fake = await startFakeOutcomeVenues();
  const close0 = Date.parse("2026-06-01T00:00:00Z");
  const iso = (ms: number) => new Date(ms).toISOString();
  // Every kind the readers map: resolved Yes/No, 50-50, proposed, disputed, closed only; Kalshi determined, finalized, amended, voided.
  fake.gamma = Array.from({ length: SWEEP_MARKETS }, (_, i) => {
    const closed = close0 + i * 60_000;
    const kind = i % 10;
    const fields: Record<string, unknown> =
      kind < 6
        ? { umaResolutionStatus: "resolved", outcomePrices: i % 2 === 0 ? '["1","0"]' : '["0","1"]' }
        : kind === 6
          ? { umaResolutionStatus: "resolved", outcomePrices: '["0.5","0.5"]' }
          : kind === 7
            ? { umaResolutionStatus: "proposed", outcomePrices: '["0.98","0.02"]' }
            : kind === 8
              ? { umaResolutionStatus: "disputed", outcomePrices: '["0.7","0.3"]' }
              : { outcomePrices: '["0.4","0.6"]' };
    return gammaMarket(String(9_000_000 + i), `0x${(9_000_000 + i).toString(16).padStart(64, "0")}`, [`${91_000_000 + 2 * i}`, `${91_000_000 + 2 * i + 1}`], {
      closedTime: iso(closed).replace("T", " ").replace("Z", "+00"),
      updatedAt: iso(closed + 3_600_000),
      ...fields,
    });
  });
  fake.kalshi = Array.from({ length: SWEEP_MARKETS }, (_, i) => {
    const closed = close0 + i * 60_000;
    const kind = i % 10;
    const status = kind < 6 ? "finalized" : kind === 6 ? "determined" : kind === 7 ? "amended" : kind === 8 ? "disputed" : "closed";
    const result = kind === 9 ? "" : i % 2 === 0 ? "yes" : "no";
    return kalshiMarket(`KXSWEEP-${i}`, {
      status,
      result,
      settlement_value_dollars: result === "" ? null : result === "yes" ? "1.0000" : "0.0000",
      close_time: iso(closed),
      settlement_ts: status === "finalized" ? iso(closed + 7_200_000) : undefined,
      updated_time: iso(closed + 3_600_000),
    });
  });
  const db = await getDb();
  const stores = await getTickStores();
  const sink = new ResolutionSink(db, stores.writer);
  const polymarket = new PolymarketRest({ gammaUrl: fake.gammaUrl, redirectUrl: null });
  const kalshi = new KalshiRest({ baseUrl: fake.kalshiUrl, redirectUrl: null });
  const rows: string[][] = [];
  try {
    // Baseline: the same pages, fetched and parsed, nothing else.
    const pagesOnly = await timed(async () => {
      let n = 0;
      for await (const page of polymarket.marketPages({ closed: true })) n += page.length;
      for (const status of ["closed", "settled"]) for await (const page of kalshi.marketPages("/markets", { status })) n += page.length;
      return n;
    });
    const poly = await timed(() => sweepPolymarketOutcomes(polymarket, (records) => sink.record(records)));
    const kal = await timed(() => sweepKalshiOutcomes(kalshi, (records) => sink.record(records), { historical: false }));
    await sink.flushed();
    const written = await stores.service.client().then((client) =>
      client.query({ query: "SELECT venue, count() FROM market_outcomes WHERE venue IN ('polymarket', 'kalshi') AND source = 'rest' GROUP BY venue ORDER BY venue", format: "JSONCompactEachRow" }),
    );
    const counts = new Map((await written.json<[string, string | number]>()).map(([venue, n]) => [venue, Number(n)]));
    const base = pagesOnly.ms / 2;
    rows.push(["pages fetched and parsed, both venues (baseline)", pagesOnly.result.toLocaleString("en-US"), `${(pagesOnly.ms / 1000).toFixed(1)} s`, rate(pagesOnly.result, pagesOnly.ms), "", "1.00×"]);
    rows.push(["Polymarket sweep (Gamma keyset) into both stores", poly.result.toLocaleString("en-US"), `${(poly.ms / 1000).toFixed(1)} s`, rate(poly.result, poly.ms), String(counts.get("polymarket") ?? 0), `${(poly.ms / base).toFixed(2)}×`]);
    rows.push(["Kalshi sweep (/markets closed + settled) into both stores", kal.result.toLocaleString("en-US"), `${(kal.ms / 1000).toFixed(1)} s`, rate(kal.result, kal.ms), String(counts.get("kalshi") ?? 0), `${(kal.ms / base).toFixed(2)}×`]);
    printTable(["path", "markets read", "time", "markets/s", "changes in ClickHouse", "vs baseline (per venue)"], rows);
    console.log(`sink: ${sink.counters.records} records, ${sink.counters.changes} changes, ${sink.counters.failures} failed batches (${loadLine("at the end")})`);
    if (sink.counters.failures > 0 || poly.result !== SWEEP_MARKETS || kal.result !== SWEEP_MARKETS) process.exitCode = 1;
  } finally {
    await fake.close();
  }
}

/** (3) market_resolved on the channel → recorder → sink → live bus → GET /v0/stream client. */
async function streamSection(): Promise<void> {
  const { startFakeMarketChannel } = await import("../../test/fakes/market-channel");
  const { sseEvents } = await import("../../test/helpers/sse");
  const { getDb } = await import("@/lib/db");
  const { getTickStores } = await import("@/lib/ticks");
  const { getLiveBus } = await import("@/lib/live/connection");
  const { ResolutionSink } = await import("@/lib/outcomes/sink");
  const { Recorder } = await import("@/lib/recorder/polymarket/recorder");
  const { marketResolvedSink } = await import("@/lib/recorder/polymarket/service");
  const { ensureAccount, setPlan } = await import("@/lib/auth/accounts");
  const { createApiKey } = await import("@/lib/auth/api-keys");
  const { GET: streamRoute } = await import("@/app/v0/stream/route");
  console.log(`\n## resolution event: channel → /v0/stream client, ${EVENTS} events one at a time (${loadLine("at start")})`);
  const db = await getDb();
  const stores = await getTickStores();
  const bus = await getLiveBus();
  const sink = new ResolutionSink(db, stores.writer, bus);
  const fake = await startFakeMarketChannel({ frames: [] });
  const recorder = new Recorder({ writer: stores.writer, wsUrl: fake.url, assets: async () => ["1"], maxAssets: 10, minBackoffMs: 20, onLifecycle: marketResolvedSink(db, sink) });
  const email = `bench-outcomes-${Date.now()}@example.test`;
  const { account } = await ensureAccount(db, email);
  await setPlan(db, email, "enterprise");
  const { key } = await createApiKey(db, account.id, "bench");
  const abort = new AbortController();
  const sent = new Map<string, number>();
  const onBus = new Map<string, number>();
  const toBus: number[] = [];
  const toClient: number[] = [];
  const busToClient: number[] = [];
  let arrived: ((market: string) => void) | undefined;
  const stopBus = bus.subscribeResolutions("polymarket", (message) => onBus.set(message.market, performance.now()));
  try {
    await recorder.start();
    for (let waited = 0; fake.openSockets() === 0; waited += 20) {
      if (waited > 30_000) throw new Error("the recorder did not connect to the loopback market channel");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const response = await streamRoute(new Request("http://localhost/v0/stream?exchange=polymarket&resolutions=*", { headers: { authorization: `Bearer ${key}` }, signal: abort.signal }), {
      params: Promise.resolve({}),
    });
    if (response.status !== 200 || response.body === null) throw new Error(`/v0/stream answered ${response.status}`);
    let subscribed: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (subscribed = resolve));
    const body = response.body;
    const reading = (async () => {
      for await (const event of sseEvents(body)) {
        if (event.event === "subscribed") subscribed();
        if (event.event === "resolution") arrived?.(String(event.symbol));
      }
    })().catch(() => undefined);
    await ready;
    const t0 = Date.parse("2026-11-01T00:00:00Z");
    for (let i = 0; i < EVENTS; i += 1) {
      const market = `0x${(7_000_000 + i).toString(16).padStart(64, "0")}`;
      const frame = JSON.stringify([
        { event_type: "market_resolved", id: String(7_000_000 + i), market, assets_ids: [`${71_000_000 + 2 * i}`, `${71_000_000 + 2 * i + 1}`], winning_asset_id: `${71_000_000 + 2 * i}`, winning_outcome: "Yes", timestamp: String(t0 + i * 1000) },
      ]);
      const got = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`event ${i} not received in 10 s`)), 10_000);
        arrived = (symbol) => {
          if (symbol !== market) return;
          clearTimeout(timer);
          resolve();
        };
      });
      const start = performance.now();
      sent.set(market, start);
      fake.broadcast(frame);
      await got;
      const end = performance.now();
      const bus = onBus.get(market) ?? end;
      toClient.push(end - start);
      toBus.push(bus - start);
      busToClient.push(end - bus);
    }
    abort.abort();
    await reading;
  } finally {
    stopBus();
    await recorder.stop();
    await fake.close();
  }
  const row = (label: string, times: number[]) => {
    const s = summarize(times);
    return [label, String(s.n), s.p50.toFixed(1), s.p90.toFixed(1), s.p99.toFixed(1), s.max.toFixed(1)];
  };
  printTable(
    ["path", "events", "p50 ms", "p90 ms", "p99 ms", "max ms"],
    [
      row("channel frame → /v0/stream client (whole path)", toClient),
      row("  channel frame → live bus (recorder, sink: PostgreSQL + ClickHouse written)", toBus),
      row("  live bus → /v0/stream client (hub, tick, SSE)", busToClient),
    ],
  );
  console.log(`(${loadLine("at the end")})`);
}

async function main(): Promise<void> {
  console.log(`# bench:outcomes (${new Date().toISOString()}, ${loadLine("at start")})`);
  try {
    if (SECTIONS.has("calibration")) {
      const { calibrationSection } = await import("./outcomes-calibration");
      await calibrationSection();
    }
    if (SECTIONS.has("sweep")) await sweepSection();
    if (SECTIONS.has("stream")) await streamSection();
  } finally {
    const { closeTickStores } = await import("@/lib/ticks");
    const { closeDatabase } = await import("@/lib/db");
    await closeTickStores().catch(() => undefined);
    await closeDatabase().catch(() => undefined);
    removeDataDir();
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
