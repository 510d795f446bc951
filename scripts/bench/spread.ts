/**
 * bench:spread — the spread series of a pair (docs/spreads.md, "Measured") against ClickHouse
 * computing the same best bid/ask series itself, in the same run:
 *  (1) every change of either book: lib/spreads' series (both books' rows streamed from the tick
 *      tables, merged on one clock, replayed through lib/books, each point priced: best levels,
 *      gross both ways, both books walked for --size and both venues' fees) vs one engine query: an
 *      ASOF JOIN of the two books' best levels at every instant either changed;
 *  (2) a 1 s grid over the day: the same, vs the engine's ASOF JOIN on the grid.
 * One UTC day of two busy books, --rows each (Polymarket's table and Kalshi's), generated inside
 * the engine: a 20-level `book` every 500 rows, `price_change`s in between stating the venue's best
 * prices (so the rebuilt books stay in sync and every instant is priced), both outcomes recorded
 * all day (a journal run each). Embedded stores in a temp DATA_DIR. Prints times, the ratio,
 * peak RSS and Node's heap, and the load average.
 *
 *   npm run bench:spread                      # short default: 200,000 rows a book
 *   npm run bench:spread -- --rows 1000000    # the issue's day of two 1M-row books
 *   npm run bench:spread -- --stages          # also where the series' time goes: the merged rows'
 *                                             # query alone (the engine's part), the rows read and
 *                                             # parsed, then also applied to the books
 *   npm run bench:spread -- --live            # also the series' live memory: each series run again
 *                                             # with a full collection every 100 ms, the most heap +
 *                                             # buffers left above the start after one (not timed)
 *   npm run bench:spread -- --insert-only     # what a write pays: the two books' INSERTs and their
 *                                             # merge timed apart, then exit (docs/spreads.md)
 */
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { benchDataDir } from "./lib/harness";
import { loadLine } from "./lib/memory";

const { values } = parseArgs({
  options: { rows: { type: "string", default: "200000" }, size: { type: "string", default: "500" }, runs: { type: "string", default: "2" }, stages: { type: "boolean", default: false }, "insert-only": { type: "boolean", default: false }, live: { type: "boolean", default: false } },
});
const ROWS = Number(values.rows);
const SIZE = Number(values.size);
const RUNS = Number(values.runs);

const { dir: dataDir, remove: removeDataDir } = benchDataDir("spread", { inProcess: true });

const DAY = 86_400_000;
const POLY_MARKET = `0x${"ab".repeat(32)}`;
const POLY_YES = "bench-poly-yes";
const KALSHI_TICKER = "KXBENCH-26DEC31";

/** One book's rows over the day, in the engine: snapshots every 500 rows, changes below the top stating the top. */
function generate(table: string, market: string, asset: string, start: number, offsetMs: number, bidBase: number, cycle: number): string {
  const best = `(${bidBase} + intDiv(number, 500) % ${cycle})`;
  const level = (i: string, sideBest: string, sign: string) => `concat('["0.', leftPad(toString(${sideBest} ${sign} ${i}), 2, '0'), '","', toString(100 + (number + ${i}) * 37 % 900), '"]')`;
  return `INSERT INTO ${table} (timestamp, timestamp_received, market, event_type, data)
    SELECT fromUnixTimestamp64Milli(toInt64(${start + offsetMs} + intDiv(number * ${DAY - 1000}, ${ROWS}))) AS ts, ts, '${market}',
      if(number % 500 = 0, 'book', 'price_change'),
      if(number % 500 = 0,
        concat('{"asset_id":"${asset}","bids":[', arrayStringConcat(arrayMap(i -> ${level("(19 - i)", best, "-")}, range(20)), ','),
               '],"asks":[', arrayStringConcat(arrayMap(i -> ${level("(19 - i)", `(${best} + 2)`, "+")}, range(20)), ','), '],"hash":"","tick_size":"0.01"}'),
        concat('{"asset_id":"${asset}","price":"0.', leftPad(toString(if(number % 2 = 0, ${best} - 1 - number % 15, ${best} + 3 + number % 15)), 2, '0'),
               '","size":"', toString(if(number % 7 = 0, 0, 100 + number % 900)), '","side":"', if(number % 2 = 0, 'BUY', 'SELL'),
               '","best_bid":"0.', toString(${best}), '","best_ask":"0.', toString(${best} + 2), '","hash":""}'))
    FROM numbers(${ROWS})`;
}

/** The engine's best bid/ask of one book at each of its rows (a book's from its levels, a change's as stated). */
function bestLevels(table: string, market: string, asset: string): string {
  return `SELECT 1 AS k, timestamp AS ts,
      if(event_type = 'book', arrayMax(arrayMap(x -> toFloat64(x[1]), JSONExtract(data, 'bids', 'Array(Array(String))'))), toFloat64OrZero(JSONExtractString(data, 'best_bid'))) AS bid,
      if(event_type = 'book', arrayMin(arrayMap(x -> toFloat64(x[1]), JSONExtract(data, 'asks', 'Array(Array(String))'))), toFloat64OrZero(JSONExtractString(data, 'best_ask'))) AS ask
    FROM ${table} WHERE market = '${market}' AND event_type IN ('book', 'price_change') AND JSONExtractString(data, 'asset_id') = '${asset}'
      AND timestamp >= {since:DateTime64(3)} AND timestamp <= {until:DateTime64(3)}`;
}

async function main(): Promise<void> {
  const { getTickStores } = await import("@/lib/ticks");
  const { getDb } = await import("@/lib/db");
  const { upsertCatalog } = await import("@/lib/catalog/store");
  const { marketUuid, eventUuid } = await import("@/lib/catalog/ids");
  const { recorderIncidents, recorderRuns } = await import("@/lib/db/schema");
  const { runMode } = await import("@/lib/recorder/journal");
  const { resolvePair } = await import("@/lib/spreads/pairs");
  const { pairInputs } = await import("@/lib/spreads/service");
  const { priceSeries } = await import("@/lib/spreads/series");
  const { AssetBook, applyReplayBatchRow } = await import("@/lib/books/book-state");
  const { bind, tickStream } = await import("@/lib/ticks");
  const { mergedBookQuery } = await import("@/lib/history/ticks");

  console.log(`bench:spread — ${ROWS.toLocaleString("en")} rows a book, size ${SIZE}, data dir ${dataDir}, node ${process.version}, ${loadLine("at start")}`);
  const stores = await getTickStores();
  const db = await getDb();
  const now = Date.now();
  const start = Math.floor(now / DAY) * DAY - DAY;
  const until = start + DAY - 1;

  const gen = performance.now();
  const genCpu = process.cpuUsage();
  await stores.writer.command({ query: generate("polymarket_orderbook_rust", POLY_MARKET, POLY_YES, start, 0, 30, 10) });
  await stores.writer.command({ query: generate("kalshi_orderbook", KALSHI_TICKER, KALSHI_TICKER, start, 17, 33, 7) });
  const inserted = performance.now();
  const insertCpu = process.cpuUsage(genCpu);
  await stores.writer.command({ query: "OPTIMIZE TABLE polymarket_orderbook_rust FINAL" });
  await stores.writer.command({ query: "OPTIMIZE TABLE kalshi_orderbook FINAL" });
  const mergeCpu = process.cpuUsage(genCpu);
  const cpuSeconds = (usage: NodeJS.CpuUsage) => ((usage.user + usage.system) / 1e6).toFixed(1);
  console.log(
    `tick tables: 2 × ${ROWS.toLocaleString("en")} rows generated and merged in ${((performance.now() - gen) / 1000).toFixed(1)} s ` +
      `(INSERT ${((inserted - gen) / 1000).toFixed(1)} s wall, ${cpuSeconds(insertCpu)} s CPU; OPTIMIZE … FINAL ${((performance.now() - inserted) / 1000).toFixed(1)} s wall, ${(Number(cpuSeconds(mergeCpu)) - Number(cpuSeconds(insertCpu))).toFixed(1)} s CPU)`,
  );
  if (values["insert-only"]) {
    console.log(loadLine("at end"));
    return;
  }

  const common = { description: null, category: "Economics", volume24h: 1, volume: null, liquidity: null, openInterest: null, status: "active", closed: false, resolutionDate: null, url: null, image: null, lastSeenAt: new Date() };
  const eventRow = (venue: string, id: string) => ({ id: eventUuid(venue, id), venue, venueEventId: id, title: "Bench", slug: id, description: null, category: "Economics", venueCategory: null, tags: [], image: null, url: null, volume24h: 1, volume: null, closed: false, resolutionDate: null, lastSeenAt: new Date() });
  await upsertCatalog(db, [
    { event: eventRow("polymarket", "bench-ev"), markets: [{ ...common, id: marketUuid("polymarket", "bench-poly"), eventId: eventUuid("polymarket", "bench-ev"), venue: "polymarket", venueMarketId: "bench-poly", title: "Bench", slug: "bench-poly", contractAddress: POLY_MARKET, outcomes: [{ outcomeId: POLY_YES, label: "Yes", price: 0.4, priceChange24h: 0 }, { outcomeId: "bench-poly-no", label: "No", price: 0.6, priceChange24h: 0 }], outcomeIds: [POLY_YES, "bench-poly-no"] }] },
    { event: eventRow("kalshi", "KXBENCH"), markets: [{ ...common, id: marketUuid("kalshi", KALSHI_TICKER), eventId: eventUuid("kalshi", "KXBENCH"), venue: "kalshi", venueMarketId: KALSHI_TICKER, title: "Bench", slug: "kxbench", contractAddress: null, outcomes: [{ outcomeId: KALSHI_TICKER, label: "Yes", price: 0.4, priceChange24h: 0 }, { outcomeId: `${KALSHI_TICKER}-NO`, label: "No", price: 0.6, priceChange24h: 0 }], outcomeIds: [KALSHI_TICKER, `${KALSHI_TICKER}-NO`] }] },
  ]);
  for (const [venue, asset] of [["polymarket", POLY_YES], ["kalshi", KALSHI_TICKER]] as const) {
    const runId = randomUUID();
    await db.insert(recorderRuns).values({ id: runId, host: "bench", pid: 0, mode: runMode("bench", venue), startedAt: new Date(start - 60_000), beatAt: new Date(until + 60_000), stoppedAt: new Date(until + 60_000), counters: {} });
    await db.insert(recorderIncidents).values({ runId, kind: "assets_added", startedAt: new Date(start - 60_000), assets: [asset], message: "bench" });
  }
  const pair = await resolvePair(db, "bench-poly", KALSHI_TICKER);

  let peakRss = 0;
  let peakHeap = 0;
  const sampler = setInterval(() => {
    const memory = process.memoryUsage();
    peakRss = Math.max(peakRss, memory.rss);
    peakHeap = Math.max(peakHeap, memory.heapUsed + memory.arrayBuffers);
  }, 20);
  const measure = async (work: () => Promise<number>) => {
    global.gc?.();
    const memory = process.memoryUsage();
    peakRss = memory.rss;
    peakHeap = memory.heapUsed + memory.arrayBuffers;
    const baseRss = memory.rss;
    const baseHeap = peakHeap;
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const points = await work();
    const cpu = process.cpuUsage(cpu0);
    return { seconds: (performance.now() - t0) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6, points, rssGrowth: (peakRss - baseRss) / 1e6, heapGrowth: (peakHeap - baseHeap) / 1e6 };
  };

  const ours = (step: number | undefined) => async () => {
    const [a, b, rows] = await pairInputs(db, stores.service, pair, start, until, now);
    let points = 0;
    let priced = 0;
    for await (const batch of priceSeries(a, b, rows, { since: start, until, step, size: SIZE, threshold: 0, initial: true })) {
      for (const point of batch) {
        points += 1;
        if (point.net !== null) priced += 1;
      }
    }
    if (priced < points * 0.99) throw new Error(`only ${priced} of ${points} points priced: the bench books are not known`);
    return points;
  };
  /** The engine's part of the series alone: the merged rows' query streamed from the engine and counted, not parsed. */
  const engineStage = async () => {
    const [, , , starts] = await pairInputs(db, stores.service, pair, start, until, now);
    const sides = [pair.a, pair.b].flatMap((side, i) => (starts[i] === undefined ? [] : [{ source: side.source, assetId: side.outcomeId, fromMs: starts[i], side: i }]));
    const { query, binds } = mergedBookQuery(sides, until);
    let rows = 0;
    for await (const chunk of tickStream(stores.service, query, binds, "RowBinary")) rows += chunk.length;
    return rows;
  };
  /** The series' first stages alone: both books' merged rows read and parsed, and (`books`) applied to the book state. */
  const stage = (books: boolean) => async () => {
    const [, , rows] = await pairInputs(db, stores.service, pair, start, until, now);
    const state = [new AssetBook(POLY_YES, ""), new AssetBook(KALSHI_TICKER, "")];
    let count = 0;
    for await (const batch of rows) {
      count += batch.length;
      if (!books) continue;
      for (let i = 0; i < batch.length; i += 1) {
        const book = state[batch.side[i] ?? 0] ?? new AssetBook("", "");
        applyReplayBatchRow(book, batch, i);
      }
    }
    return count;
  };
  const engine = (grid: boolean) => async () => {
    const times = grid
      ? `SELECT 1 AS k, fromUnixTimestamp64Milli(toInt64(${start} + number * 1000)) AS ts FROM numbers(${DAY / 1000})`
      : `SELECT 1 AS k, ts FROM (SELECT ts FROM a UNION DISTINCT SELECT ts FROM b)`;
    const result = await stores.writer.query({
      query: `WITH a AS (${bestLevels("polymarket_orderbook_rust", POLY_MARKET, POLY_YES)}), b AS (${bestLevels("kalshi_orderbook", KALSHI_TICKER, KALSHI_TICKER)}), t AS (${times})
        SELECT toUnixTimestamp64Milli(t.ts), a.bid, a.ask, b.bid, b.ask, b.bid - a.ask, a.bid - b.ask
        FROM t ASOF LEFT JOIN a ON t.k = a.k AND t.ts >= a.ts ASOF LEFT JOIN b ON t.k = b.k AND t.ts >= b.ts ORDER BY t.ts`,
      query_params: { since: bind.time(start - DAY).value, until: bind.time(until).value },
      format: "JSONCompactEachRow",
    });
    let points = 0;
    for await (const batch of result.stream()) points += batch.length;
    return points;
  };

  const table: string[] = [];
  for (const [label, mine, baseline] of [
    ["every change", ours(undefined), engine(false)],
    ["1 s grid", ours(1000), engine(true)],
  ] as const) {
    const runsOurs: Awaited<ReturnType<typeof measure>>[] = [];
    const runsEngine: Awaited<ReturnType<typeof measure>>[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      // Alternate which goes first: the shared cores' load moves between runs.
      if (run % 2 === 0) {
        runsEngine.push(await measure(baseline));
        runsOurs.push(await measure(mine));
      } else {
        runsOurs.push(await measure(mine));
        runsEngine.push(await measure(baseline));
      }
    }
    const best = (list: typeof runsOurs) => list.reduce((x, y) => (y.seconds < x.seconds ? y : x));
    const o = best(runsOurs);
    const e = best(runsEngine);
    table.push(`| ${label} | engine ASOF JOIN (best bid/ask) | ${e.points.toLocaleString("en")} | ${e.seconds.toFixed(2)} s | ${e.cpuSeconds.toFixed(2)} s | ${e.rssGrowth.toFixed(0)} MB | ${e.heapGrowth.toFixed(0)} MB | 1.00× | 1.00× |`);
    table.push(`| ${label} | lib/spreads series (best levels, gross, walk for ${SIZE}, fees) | ${o.points.toLocaleString("en")} | ${o.seconds.toFixed(2)} s | ${o.cpuSeconds.toFixed(2)} s | ${o.rssGrowth.toFixed(0)} MB | ${o.heapGrowth.toFixed(0)} MB | ${(o.seconds / e.seconds).toFixed(2)}× | ${(o.cpuSeconds / e.cpuSeconds).toFixed(2)}× |`);
  }
  if (values.stages) {
    for (const [label, work] of [
      ["merged rows' query alone, streamed from the engine, bytes counted (not parsed)", engineStage],
      ["merged rows read and parsed", stage(false)],
      ["merged rows read, parsed and applied to both books", stage(true)],
    ] as const) {
      const runs: Awaited<ReturnType<typeof measure>>[] = [];
      for (let run = 0; run < RUNS; run += 1) runs.push(await measure(work));
      const o = runs.reduce((x, y) => (y.seconds < x.seconds ? y : x));
      table.push(`| stages | ${label} | ${o.points.toLocaleString("en")} rows | ${o.seconds.toFixed(2)} s | ${o.cpuSeconds.toFixed(2)} s | ${o.rssGrowth.toFixed(0)} MB | ${o.heapGrowth.toFixed(0)} MB | | |`);
    }
  }
  if (values.live) {
    if (global.gc === undefined) throw new Error("--live needs node's --expose-gc (npm run bench:spread passes it)");
    // The peak growth above counts garbage not collected yet; what a replay holds is what is left after a collection.
    for (const [label, work] of [
      ["every change", ours(undefined)],
      ["1 s grid", ours(1000)],
    ] as const) {
      global.gc();
      const base = process.memoryUsage();
      let live = 0;
      const collector = setInterval(() => {
        global.gc?.();
        const memory = process.memoryUsage();
        live = Math.max(live, memory.heapUsed + memory.arrayBuffers - base.heapUsed - base.arrayBuffers);
      }, 100);
      const points = await work();
      clearInterval(collector);
      table.push(`| live memory | ${label}: the series with a full collection every 100 ms, most heap + buffers left above the start after one | ${points.toLocaleString("en")} | | | | ${(live / 1e6).toFixed(0)} MB | | |`);
    }
  }
  clearInterval(sampler);
  console.log("\n| series | path | points | wall time (best run) | process CPU (engine in-process) | peak RSS growth (engine included) | peak Node heap + buffers growth | wall vs engine (target ≤ 1.5×) | CPU vs engine |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const line of table) console.log(line);
  console.log(`\n${loadLine("at end")}; peak RSS ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB now`);
}

main()
  .then(() => {
    removeDataDir();
    process.exit(0);
  })
  .catch((error: unknown) => {
    console.error(error);
    removeDataDir();
    process.exit(1);
  });
