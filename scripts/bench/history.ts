/**
 * bench:history — the history endpoints' figures (docs/history.md), each next to a baseline measured in the same run:
 *  (1) GET /v0/orderbooks/{outcomeId}?at= for a market with 1M recorded events (route handler
 *      in-process: key, rate limit, catalog lookup, last-book seek, replay) vs replaying every row
 *      of the asset from its first event up to `at` (no seek);
 *  (2) GET /v0/orderbooks/{outcomeId}/history with 1,000 snapshots (interval 1m) vs 1,000 at= calls;
 *  (3) GET /v0/markets/{id}/prices?interval=1d over a year of 60 s snapshots vs reading the raw
 *      snapshots and aggregating in the process;
 *  (4) the catalog poll's extra cost of writing price snapshots at 100,000 markets (200,000
 *      outcomes) vs the poll's catalog upsert of the same markets.
 * The tick table is generated inside the engine like bench:ticks (numbers()): the hot market's 1M
 * events over 7 days (two outcomes, a `book` every 500 events per outcome, ~3% trades) among
 * `--rows` in total. Embedded stores in a temp DATA_DIR. Prints peak RSS and the load average.
 *
 *   npm run bench:history [-- --rows 3000000 --runs 40]
 */
import { parseArgs } from "node:util";
import { benchDataDir, summarize } from "./lib/harness";
import { loadLine } from "./lib/memory";
import type { NormalizedEvent } from "@/lib/catalog/normalize";

const { values } = parseArgs({ options: { rows: { type: "string", default: "3000000" }, runs: { type: "string", default: "40" }, markets: { type: "string", default: "100000" } } });
const totalRows = Number(values.rows);
const runs = Number(values.runs);
const pollMarkets = Number(values.markets);

const { dir: dataDir, remove: removeDataDir } = benchDataDir("history", { inProcess: true, env: { RATE_LIMIT_ENTERPRISE: "100000000" } });

const HOT = `0x${"cd".repeat(32)}`;
const YES = "90000000000000000000000000000000000000000000000000000000000000000000000000001";
const NO = "90000000000000000000000000000000000000000000000000000000000000000000000000002";
const HOT_EVENTS = 1_000_000;
const DAY = 86_400_000;

const summary = summarize;
const ms = (value: number) => value.toFixed(1);

async function main(): Promise<void> {
  const { getTickStores } = await import("@/lib/ticks");
  const { getDb } = await import("@/lib/db");
  const { ensureAccount, setPlan } = await import("@/lib/auth/accounts");
  const { createApiKey } = await import("@/lib/auth/api-keys");
  const { upsertCatalog } = await import("@/lib/catalog/store");
  const { marketUuid, eventUuid } = await import("@/lib/catalog/ids");
  const { GET: bookRoute } = await import("@/app/v0/orderbooks/[outcomeId]/route");
  const { GET: historyRoute } = await import("@/app/v0/orderbooks/[outcomeId]/history/route");
  const { GET: pricesRoute } = await import("@/app/v0/markets/[id]/prices/route");
  const { replayBook } = await import("@/lib/books/book-state");
  const { bookRows } = await import("@/lib/history/ticks");
  const { insertPriceSnapshots, recordPollPrices } = await import("@/lib/history/prices");
  const { internalDatabase } = await import("@/lib/ticks/migrate");

  console.log(`bench:history — data dir ${dataDir}, node ${process.version}, ${loadLine("at start")}`);
  const stores = await getTickStores();
  const db = await getDb();
  const now = Date.now();
  const start = now - 7 * DAY;

  // The tick table: the hot market's 1M events over 7 days, then the other markets' rows.
  const gen = performance.now();
  await stores.writer.command({
    query: `INSERT INTO polymarket_orderbook_rust (timestamp, timestamp_received, market, event_type, data)
      SELECT fromUnixTimestamp64Milli(toInt64(${start} + intDiv(number * ${7 * DAY}, ${HOT_EVENTS}))) AS ts, ts, '${HOT}',
        multiIf(number % 1000 < 2, 'book', number % 33 = 5, 'last_trade_price', 'price_change') AS type,
        multiIf(number % 1000 < 2,
          concat('{"asset_id":"', if(number % 2 = 0, '${YES}', '${NO}'), '","bids":[', arrayStringConcat(arrayMap(i -> concat('["0.', toString(20 + i), '","', toString(100 + (number + i) % 900), '"]'), range(20)), ','), '],"asks":[', arrayStringConcat(arrayMap(i -> concat('["0.', toString(79 - i), '","', toString(100 + (number * 7 + i) % 900), '"]'), range(20)), ','), '],"hash":"', hex(cityHash64(number)), '","tick_size":"0.01"}'),
          number % 33 = 5,
          concat('{"asset_id":"', if(number % 2 = 0, '${YES}', '${NO}'), '","price":"0.', toString(40 + number % 20), '","size":"', toString(number % 500), '","side":"BUY","fee_rate_bps":"0","transaction_hash":"0x', hex(cityHash64(number)), '"}'),
          concat('{"asset_id":"', if(number % 2 = 0, '${YES}', '${NO}'), '","price":"0.', toString(20 + number % 60), '","size":"', toString(if(number % 7 = 0, 0, number % 5000)), '","side":"', if(number % 3 = 0, 'SELL', 'BUY'), '","best_bid":"0.39","best_ask":"0.41","hash":"', hex(cityHash64(number)), '"}'))
      FROM numbers(${HOT_EVENTS})`,
  });
  const others = Math.max(0, totalRows - HOT_EVENTS);
  if (others > 0) {
    await stores.writer.command({
      query: `INSERT INTO polymarket_orderbook_rust (timestamp, timestamp_received, market, event_type, data)
        SELECT fromUnixTimestamp64Milli(toInt64(${start} + (number * 7919) % ${7 * DAY})) AS ts, ts, concat('0x', leftPad(hex(number % 999 + 1), 64, '0')),
          if(number % 20 = 0, 'book', 'price_change'),
          if(number % 20 = 0, concat('{"asset_id":"', toString(number % 1998), '","bids":[["0.5","100"]],"asks":[["0.52","100"]],"hash":"h","tick_size":"0.01"}'),
             concat('{"asset_id":"', toString(number % 1998), '","price":"0.5","size":"', toString(number % 900), '","side":"BUY","best_bid":"0.5","best_ask":"0.52","hash":"h"}'))
        FROM numbers(${others})`,
    });
  }
  await stores.writer.command({ query: "OPTIMIZE TABLE polymarket_orderbook_rust FINAL" });
  console.log(`tick table: ${(HOT_EVENTS + others).toLocaleString("en")} rows (hot market ${HOT_EVENTS.toLocaleString("en")}) generated and merged in ${((performance.now() - gen) / 1000).toFixed(1)} s`);

  // The hot market in the catalog; an enterprise key.
  const eventId = eventUuid("polymarket", "bench-hot");
  const hotMarketId = marketUuid("polymarket", "bench-hot-market");
  await upsertCatalog(db, [
    {
      event: { id: eventId, venue: "polymarket", venueEventId: "bench-hot", title: "Bench", slug: "bench", description: null, category: "Politics", venueCategory: null, tags: [], image: null, url: null, volume24h: 1, volume: null, closed: false, resolutionDate: null, lastSeenAt: new Date() },
      markets: [
        {
          id: hotMarketId, eventId, venue: "polymarket", venueMarketId: "bench-hot-market", title: "Bench hot market", slug: "bench-hot-market", description: null, category: "Politics",
          outcomes: [{ outcomeId: YES, label: "Yes", price: 0.4, priceChange24h: 0 }, { outcomeId: NO, label: "No", price: 0.6, priceChange24h: 0 }],
          outcomeIds: [YES, NO], volume24h: 1, volume: null, liquidity: null, openInterest: null, status: "active", closed: false, resolutionDate: null, contractAddress: HOT, url: null, image: null, lastSeenAt: new Date(),
        },
      ],
    },
  ]);
  const email = `bench-history-${Date.now()}@example.test`;
  const { account } = await ensureAccount(db, email);
  await setPlan(db, email, "enterprise");
  const key = (await createApiKey(db, account.id, "bench")).key;
  const call = async <P,>(handler: (request: Request, route: { params: Promise<P> }) => Promise<Response>, url: string, params: P) => {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const response = await handler(new Request(`http://localhost${url}`, { headers: { authorization: `Bearer ${key}` } }), { params: Promise.resolve(params) });
    const body = await response.text();
    const elapsed = performance.now() - t0;
    const used = process.cpuUsage(cpu0);
    cpuTimes.push((used.user + used.system) / 1000);
    if (response.status !== 200) throw new Error(`${url}: ${response.status} ${body.slice(0, 200)}`);
    return { elapsed, body };
  };
  // CPU time of the process per call (chDB runs in-process, so the engine's work is in it): what a
  // call costs on an idle machine, whatever the load average of the shared cores.
  let cpuTimes: number[] = [];
  const cpuP50 = () => {
    const p = ms(summary(cpuTimes).p50);
    cpuTimes = [];
    return p;
  };
  const randomInstant = () => start + DAY / 2 + Math.floor(Math.random() * 6 * DAY);
  const rows: Array<Record<string, string | number>> = [];

  // (1) at=
  for (let i = 0; i < 3; i += 1) await call(bookRoute, `/v0/orderbooks/${YES}?at=${randomInstant()}`, { outcomeId: YES });
  cpuTimes = [];
  const atTimes: number[] = [];
  let levels = 0;
  for (let i = 0; i < runs; i += 1) {
    const { elapsed, body } = await call(bookRoute, `/v0/orderbooks/${YES}?at=${randomInstant()}`, { outcomeId: YES });
    atTimes.push(elapsed);
    const data = (JSON.parse(body) as { data: { bids: unknown[]; asks: unknown[] } }).data;
    levels += data.bids.length + data.asks.length;
  }
  const atCpu = cpuP50();
  const client = stores.service;
  const naiveTimes: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    const t0 = performance.now();
    const replayRows = [];
    for await (const row of bookRows(client, { table: "polymarket_orderbook_rust", conditionId: HOT }, YES, start, randomInstant())) replayRows.push(row);
    replayBook(YES, HOT, replayRows);
    naiveTimes.push(performance.now() - t0);
  }
  const at = summary(atTimes);
  const naive = summary(naiveTimes);
  rows.push({ case: "GET /v0/orderbooks/{id}?at= (1M-event market)", runs: at.n, "p50 ms": ms(at.p50), "p90 ms": ms(at.p90), "max ms": ms(at.max), "CPU ms p50": atCpu, target: "p50 <= 50 ms", note: `${Math.round(levels / runs)} levels per book` });
  rows.push({ case: "  baseline: replay every row of the asset since its first event", runs: naive.n, "p50 ms": ms(naive.p50), "p90 ms": ms(naive.p90), "max ms": ms(naive.max), target: "", note: `at= is ${(naive.p50 / at.p50).toFixed(0)}x faster at p50` });

  // (2) 1,000-snapshot history call
  const historyTimes: number[] = [];
  let snapshots = 0;
  for (let i = 0; i < Math.max(5, Math.floor(runs / 4)); i += 1) {
    const since = start + Math.floor(Math.random() * 5 * DAY);
    const { elapsed, body } = await call(historyRoute, `/v0/orderbooks/${YES}/history?since=${since}&until=${since + 1000 * 60_000}&interval=1m&limit=1000`, { outcomeId: YES });
    historyTimes.push(elapsed);
    snapshots = (JSON.parse(body) as { data: unknown[] }).data.length;
  }
  const historyCpu = cpuP50();
  const loopStart = performance.now();
  const since = start + DAY;
  for (let i = 0; i < 1000; i += 1) await call(bookRoute, `/v0/orderbooks/${YES}?at=${since + i * 60_000}&depth=50`, { outcomeId: YES });
  const loopMs = performance.now() - loopStart;
  const history = summary(historyTimes);
  rows.push({ case: "GET /history, 1,000 snapshots (1m grid, depth 50)", runs: history.n, "p50 ms": ms(history.p50), "p90 ms": ms(history.p90), "max ms": ms(history.max), "CPU ms p50": historyCpu, target: "<= 500 ms", note: `${snapshots} snapshots in the last call` });
  rows.push({ case: "  baseline: 1,000 at= calls, one per grid point", runs: 1, "p50 ms": ms(loopMs), "p90 ms": "", "max ms": "", target: "", note: `history is ${(loopMs / history.p50).toFixed(0)}x faster` });

  // (3) prices over a year of 60 s snapshots (two outcomes), among 999 other markets' snapshots.
  const table = `${internalDatabase(stores.database)}.catalog_price_snapshots`;
  const yearStart = now - 365 * DAY;
  await stores.writer.command({
    query: `INSERT INTO ${table} (snapshot_at, venue, market_id, outcome_id, price, best_bid, best_ask, volume_24h)
      SELECT fromUnixTimestamp64Milli(toInt64(${yearStart} + intDiv(number, 2) * 60000)), 'polymarket', toUUID('${hotMarketId}'), if(number % 2 = 0, '${YES}', '${NO}'),
        0.5 + 0.3 * sin(number / 5000.0) * if(number % 2 = 0, 1, -1), NULL, NULL, 1000 + number % 100
      FROM numbers(${2 * 525_600})`,
  });
  await stores.writer.command({
    query: `INSERT INTO ${table} (snapshot_at, venue, market_id, outcome_id, price, best_bid, best_ask, volume_24h)
      SELECT fromUnixTimestamp64Milli(toInt64(${now - 30 * DAY} + (number % 43200) * 60000)), 'kalshi', generateUUIDv4(number % 999), toString(number % 1998), 0.5, NULL, NULL, NULL
      FROM numbers(2000000)`,
  });
  await stores.writer.command({ query: `OPTIMIZE TABLE ${table} FINAL` });
  const priceTimes: number[] = [];
  let candles = 0;
  for (let i = 0; i < runs; i += 1) {
    const { elapsed, body } = await call(pricesRoute, `/v0/markets/${hotMarketId}/prices?interval=1d&since=${yearStart}&until=${now}`, { id: hotMarketId });
    priceTimes.push(elapsed);
    candles = (JSON.parse(body) as { data: { outcomes: Array<{ candles: unknown[] }> } }).data.outcomes.reduce((n, o) => n + o.candles.length, 0);
  }
  const pricesCpu = cpuP50();
  const engineStart = performance.now();
  await (
    await stores.writer.query({
      query: `SELECT outcome_id, toStartOfDay(snapshot_at, 'UTC') AS d, argMin(price, snapshot_at), max(price), min(price), argMax(price, snapshot_at), count()
        FROM ${table} WHERE market_id = {m:UUID} AND snapshot_at >= {s:DateTime64(3)} GROUP BY outcome_id, d`,
      query_params: { m: hotMarketId, s: new Date(yearStart).toISOString().replace("T", " ").replace("Z", "") },
      format: "JSONCompactEachRow",
    })
  ).json();
  const engineMs = performance.now() - engineStart;
  const rawStart = performance.now();
  const raw = await (
    await stores.writer.query({
      query: `SELECT outcome_id, toUnixTimestamp64Milli(snapshot_at) AS t, price FROM ${table} WHERE market_id = {m:UUID} AND snapshot_at >= {s:DateTime64(3)} ORDER BY outcome_id, snapshot_at`,
      query_params: { m: hotMarketId, s: new Date(yearStart).toISOString().replace("T", " ").replace("Z", "") },
      format: "JSONCompactEachRow",
    })
  ).json<[string, number, number]>();
  const buckets = new Map<string, { o: number; h: number; l: number; c: number }>();
  for (const [outcome, t, price] of raw) {
    const k = `${outcome}:${Math.floor(Number(t) / DAY)}`;
    const b = buckets.get(k);
    if (b === undefined) buckets.set(k, { o: price, h: price, l: price, c: price });
    else {
      b.h = Math.max(b.h, price);
      b.l = Math.min(b.l, price);
      b.c = price;
    }
  }
  const rawMs = performance.now() - rawStart;
  const prices = summary(priceTimes);
  rows.push({ case: "GET /v0/markets/{id}/prices?interval=1d, a year of 60 s snapshots", runs: prices.n, "p50 ms": ms(prices.p50), "p90 ms": ms(prices.p90), "max ms": ms(prices.max), "CPU ms p50": pricesCpu, target: "<= 50 ms", note: `${candles} candles from ${(2 * 525_600).toLocaleString("en")} snapshots` });
  rows.push({ case: "  baseline: the same OHLC from the raw snapshots in the engine (no hourly view)", runs: 1, "p50 ms": ms(engineMs), "p90 ms": "", "max ms": "", target: "", note: `route is ${(engineMs / prices.p50).toFixed(1)}x faster` });
  rows.push({ case: "  baseline: read the raw snapshots, aggregate in the process", runs: 1, "p50 ms": ms(rawMs), "p90 ms": "", "max ms": "", target: "", note: `${buckets.size} candles; route is ${(rawMs / prices.p50).toFixed(0)}x faster` });

  // (4) the catalog poll's extra cost at 100,000 markets.
  const events: NormalizedEvent[] = [];
  for (let e = 0; e < pollMarkets / 4; e += 1) {
    const id = eventUuid("kalshi", `poll-${e}`);
    events.push({
      event: { id, venue: "kalshi", venueEventId: `poll-${e}`, title: `Poll event ${e}`, slug: null, description: null, category: "Economics", venueCategory: null, tags: [], image: null, url: null, volume24h: e, volume: null, closed: false, resolutionDate: null, lastSeenAt: new Date() },
      markets: Array.from({ length: 4 }, (_, m) => {
        const venueMarketId = `POLL-${e}-${m}`;
        return {
          id: marketUuid("kalshi", venueMarketId), eventId: id, venue: "kalshi", venueMarketId, title: `Poll market ${e}-${m}`, slug: null, description: null, category: "Economics",
          outcomes: [{ outcomeId: `${venueMarketId}-Y`, label: "Yes", price: 0.37, priceChange24h: 0.01 }, { outcomeId: `${venueMarketId}-N`, label: "No", price: 0.63, priceChange24h: -0.01 }],
          outcomeIds: [`${venueMarketId}-Y`, `${venueMarketId}-N`], volume24h: e + m, volume: null, liquidity: null, openInterest: null, status: "active", closed: false, resolutionDate: null, contractAddress: null, url: null, image: null, lastSeenAt: new Date(),
        };
      }),
    });
  }
  const upsertStart = performance.now();
  for (let i = 0; i < events.length; i += 2500) await upsertCatalog(db, events.slice(i, i + 2500));
  const upsertMs = performance.now() - upsertStart;
  const snapStart = performance.now();
  const snapCpu0 = process.cpuUsage();
  const written = await recordPollPrices(stores, events, Date.now());
  const snapMs = performance.now() - snapStart;
  const snapCpu = process.cpuUsage(snapCpu0);
  void insertPriceSnapshots;
  rows.push({ case: `catalog poll: price snapshots of ${pollMarkets.toLocaleString("en")} markets`, runs: 1, "p50 ms": ms(snapMs), "p90 ms": "", "max ms": "", "CPU ms p50": ms((snapCpu.user + snapCpu.system) / 1000), target: "", note: `${written.toLocaleString("en")} rows, +${((snapMs / upsertMs) * 100).toFixed(1)}% on the upsert` });
  rows.push({ case: "  baseline: the poll's catalog upsert of the same markets (PGlite)", runs: 1, "p50 ms": ms(upsertMs), "p90 ms": "", "max ms": "", target: "", note: "" });

  console.table(rows);
  console.log(`peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB; ${loadLine("at end")}`);
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(async () => {
    const { closeTickStores } = await import("@/lib/ticks");
    const { closeDatabase } = await import("@/lib/db");
    await closeTickStores().catch(() => undefined);
    await closeDatabase().catch(() => undefined);
    removeDataDir();
    process.exit();
  });
