/**
 * bench:ticks — (1) recorder throughput: market-channel frames parsed, normalized, deduplicated
 * and inserted into chDB per second on one core, with peak RSS, next to the floor of JSON.parse
 * alone; (2) SQL: the verbatim candle pattern over a 10-million-row table (1,000 markets, one with
 * 1 million ticks in the window) through POST /v0/sql (the route handler in-process: key check,
 * rate limit, guard, engine), versus the same SQL straight on the engine, versus the same SQL with
 * projections off (the plan before the best_bid_by_asset projection), versus typed columns (the
 * engine's speed limit), all measured in the same run. Rows are generated inside the engine (numbers()).
 *
 *   npm run bench:ticks [-- --events 300000 --rows 10000000 --runs 15]
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { benchDataDir, percentile } from "./lib/harness";

const { values } = parseArgs({
  options: {
    events: { type: "string", default: "300000" },
    rows: { type: "string", default: "10000000" },
    runs: { type: "string", default: "15" },
  },
});
const eventCount = Number(values.events);
const totalRows = Number(values.rows);
const runs = Number(values.runs);

const { dir: dataDir, remove: removeDataDir } = benchDataDir("ticks", { inProcess: true });

const HOT = `0x${"ab".repeat(32)}`;
const YES = "71321045679252212594626385532706912750332728571942532289631379312455583992563";

async function main(): Promise<void> {
  const { openTickStores } = await import("@/lib/ticks");
  const { normalizeFrame } = await import("@/lib/recorder/polymarket/normalize");
  const { RecorderStats } = await import("@/lib/recorder/stats");
  const { TickWriter } = await import("@/lib/recorder/writer");
  const { getDb } = await import("@/lib/db");
  const { ensureAccount, setPlan } = await import("@/lib/auth/accounts");
  const { createApiKey } = await import("@/lib/auth/api-keys");
  const { getTickStores } = await import("@/lib/ticks");
  const { POST } = await import("@/app/v0/sql/route");
  const { publishedPatterns } = await import("@/lib/sql/patterns");

  console.log(`bench:ticks — data dir ${dataDir}, node ${process.version}`);

  // (1) Recorder throughput: a replay of price_change frames (2 entries each) and books.
  const recorderStores = await openTickStores({ dataDir: path.join(dataDir, "recorder-ch") });
  const frames: string[] = [];
  const base = Date.now() - 3_600_000;
  for (let i = 0; frames.length * 2 < eventCount; i += 1) {
    const bid = 30 + (i % 40);
    frames.push(
      JSON.stringify({
        market: `0x${(i % 500).toString(16).padStart(64, "0")}`,
        price_changes: [
          { asset_id: `${1000 + (i % 500)}`, price: `0.${bid}`, size: String(100 + i), side: "BUY", hash: i.toString(16).padStart(40, "0"), best_bid: `0.${bid}`, best_ask: `0.${bid + 1}` },
          { asset_id: `${2000 + (i % 500)}`, price: `0.${99 - bid}`, size: String(100 + i), side: "SELL", hash: (i + 1).toString(16).padStart(40, "0"), best_bid: `0.${98 - bid}`, best_ask: `0.${99 - bid}` },
        ],
        timestamp: String(base + i),
        event_type: "price_change",
      }),
    );
  }
  // Floor: JSON.parse of every frame and nothing else.
  const parseStarted = performance.now();
  let parsedEvents = 0;
  for (const frame of frames) parsedEvents += (JSON.parse(frame) as { price_changes: unknown[] }).price_changes.length;
  const parseSeconds = (performance.now() - parseStarted) / 1000;

  const stats = new RecorderStats();
  const writer = new TickWriter(recorderStores.writer, stats, { highWaterRows: 1_000_000, maxBufferedRows: 2_000_000 });
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  let events = 0;
  for (const frame of frames) {
    const normalized = normalizeFrame(frame, Date.now());
    events += normalized.rows.length;
    writer.push(normalized.rows);
    if (writer.paused) await writer.flush();
  }
  await writer.close();
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  const rssMb = process.resourceUsage().maxRSS / 1024;
  console.log("\n(1) recorder: parse + normalize + dedup + batched insert (chDB), in-process replay");
  console.table([
    {
      case: "recorder (target >= 50,000 events/s)",
      frames: frames.length,
      events,
      rowsWritten: stats.rowsWritten,
      seconds: seconds.toFixed(2),
      "events/s (wall)": Math.round(events / seconds),
      "events/s per CPU-second": Math.round(events / ((cpu.user + cpu.system) / 1e6)),
      "peak RSS MB": Math.round(rssMb),
    },
    {
      case: "floor: JSON.parse of the frames only",
      frames: frames.length,
      events: parsedEvents,
      seconds: parseSeconds.toFixed(2),
      "events/s (wall)": Math.round(parsedEvents / parseSeconds),
    },
  ]);
  // Background merges (which also rebuild the projection) are not in the rate above: shown apart.
  const mergeStarted = performance.now();
  await recorderStores.writer.command({ query: "OPTIMIZE TABLE polymarket_orderbook_rust FINAL" });
  console.log(`merging the recorded parts into one (not in the rate): ${((performance.now() - mergeStarted) / 1000).toFixed(2)} s`);
  await recorderStores.close();

  // (2) SQL over 10 M rows.
  const stores = await getTickStores();
  const genStart = performance.now();
  const hotRows = Math.min(1_000_000, Math.floor(totalRows / 10));
  await stores.writer.command({
    query: `INSERT INTO polymarket_orderbook_rust (timestamp, timestamp_received, market, event_type, data)
      SELECT
        now64(3) - toIntervalMillisecond(if(number < ${hotRows}, intDiv(number * 518400, ${hotRows}) * 1000 + number % 1000, (number * 7919) % 2592000000)) AS ts,
        ts AS received,
        if(number < ${hotRows}, '${HOT}', concat('0x', leftPad(hex(number % 999 + 1), 64, '0'))) AS market,
        if(number % 20 = 0, 'book', 'price_change') AS event_type,
        if(number % 20 = 0,
           concat('{"asset_id":"', if(number % 2 = 0, '${YES}', '1234'), '","bids":[["0.5","100"],["0.51","200"]],"asks":[["0.53","100"],["0.52","200"]],"hash":"', hex(cityHash64(number)), '","tick_size":"0.01"}'),
           concat('{"asset_id":"', if(number % 2 = 0, '${YES}', '1234'), '","price":"0.', toString(10 + number % 80), '","size":"', toString(number % 5000), '","side":"', if(number % 3 = 0, 'SELL', 'BUY'), '","best_bid":"0.', toString(10 + intDiv(number, 7) % 80), '","best_ask":"0.', toString(11 + intDiv(number, 7) % 80), '","hash":"', hex(cityHash64(number)), '"}')) AS data
      FROM numbers(${totalRows})`,
  });
  await stores.writer.command({ query: "OPTIMIZE TABLE polymarket_orderbook_rust FINAL" });
  await stores.writer.command({
    query: `CREATE TABLE bench_typed (market String, timestamp DateTime64(3), event_type LowCardinality(String), asset_id String, best_bid Float64)
      ENGINE = MergeTree ORDER BY (market, timestamp)`,
  });
  await stores.writer.command({
    query: `INSERT INTO bench_typed SELECT market, timestamp, event_type, JSONExtractString(data, 'asset_id'), toFloat64OrZero(JSONExtractString(data, 'best_bid'))
      FROM polymarket_orderbook_rust WHERE market = '${HOT}'`,
  });
  const countResult = await stores.writer.query({
    query: `SELECT count() AS total, countIf(market = '${HOT}') AS hot, uniqExact(market) AS markets FROM polymarket_orderbook_rust`,
    format: "JSONEachRow",
  });
  const [counts] = await countResult.json<{ total: string; hot: string; markets: string }>();
  console.log(`\n(2) SQL: ${counts?.total} rows, ${counts?.markets} markets, ${counts?.hot} in the hot market; generated in ${((performance.now() - genStart) / 1000).toFixed(1)} s`);

  const db = await getDb();
  const email = `bench-${Date.now()}@example.test`;
  const { account } = await ensureAccount(db, email);
  await setPlan(db, email, "enterprise");
  const { key } = await createApiKey(db, account.id, "bench");

  const candle = publishedPatterns(HOT, YES).candles;
  const typed = `SELECT toStartOfHour(timestamp) AS hour, argMin(best_bid, timestamp) AS open, argMax(best_bid, timestamp) AS close,
       min(best_bid) AS low, max(best_bid) AS high, count() AS ticks
FROM bench_typed WHERE market = '${HOT}' AND event_type = 'price_change' AND asset_id = '${YES}' AND timestamp >= now() - INTERVAL 7 DAY
GROUP BY hour ORDER BY hour`;

  const plan = await stores.writer.query({ query: `EXPLAIN ${candle.replace(/;$/, "")}`, format: "TabSeparatedRaw" });
  console.log(`candle plan reads: ${/ReadFromMergeTree \((\w+)\)/.exec(await plan.text())?.[1] ?? "?"} (best_bid_by_asset is the projection)`);
  const statsOf: Record<string, { rows_read?: number; bytes_read?: number }> = {};
  const dataBy: Record<string, string> = {};
  const engine = async (name: string, client: typeof stores.reader, query: string) => {
    const result = await client.query({ query, format: "JSONCompact" });
    const body = (await result.json()) as { rows: number; data: unknown[][]; statistics?: { rows_read?: number; bytes_read?: number } };
    statsOf[name] = body.statistics ?? {};
    dataBy[name] = JSON.stringify(body.data);
    return body.rows;
  };

  const viaRoute = async (query: string) => {
    const res = await POST(
      new Request("http://localhost/v0/sql", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ query }),
      }),
      { params: Promise.resolve({}) },
    );
    const body = (await res.json()) as { data?: unknown[]; meta?: { rows: number } };
    if (res.status !== 200) throw new Error(`POST /v0/sql answered ${res.status}: ${JSON.stringify(body)}`);
    return body.meta?.rows ?? 0;
  };
  let fresh = 0;
  const cases: Record<string, () => Promise<number>> = {
    // The same text every run, as a refreshing dashboard sends it: the guard's verdict is reused (lib/sql/guard.ts).
    "POST /v0/sql (verbatim candle)": () => viaRoute(candle),
    // A text the guard has not seen (a leading comment differs every run): every check asks the engine.
    "POST /v0/sql (new text each run)": () => viaRoute(`-- run ${(fresh += 1)}\n${candle}`),
    "engine direct (same SQL)": () => engine("engine direct (same SQL)", stores.reader, candle.replace(/;$/, "")),
    "same SQL, projections off (before)": () =>
      engine("same SQL, projections off (before)", stores.writer, `${candle.replace(/;$/, "")} SETTINGS optimize_use_projections = 0`),
    "typed columns (speed limit)": () => engine("typed columns (speed limit)", stores.reader, typed),
  };
  const timings: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
  const rowsBy: Record<string, number> = {};
  for (const run of Object.values(cases)) await run(); // warm-up
  for (let i = 0; i < runs; i += 1) {
    for (const [name, run] of Object.entries(cases)) {
      const t = performance.now();
      rowsBy[name] = await run();
      timings[name]?.push(performance.now() - t);
    }
  }
  const table = Object.entries(timings).map(([name, list]) => {
    const sorted = [...list].sort((a, b) => a - b);
    return {
      case: name,
      candles: rowsBy[name],
      "p50 ms": percentile(sorted, 0.5).toFixed(1),
      "p90 ms": percentile(sorted, 0.9).toFixed(1),
      runs: list.length,
      rows_read: statsOf[name]?.rows_read ?? "",
      bytes_read: statsOf[name]?.bytes_read ?? "",
    };
  });
  console.table(table);
  const sameCandles = dataBy["engine direct (same SQL)"] === dataBy["same SQL, projections off (before)"];
  console.log(`candles from the projection identical to the table scan: ${sameCandles}`);
  if (!sameCandles) process.exitCode = 1;
  const p50 = (name: string) => percentile([...(timings[name] ?? [])].sort((a, b) => a - b), 0.5);
  console.log(
    `ratio POST /v0/sql : engine direct = ${(p50("POST /v0/sql (verbatim candle)") / p50("engine direct (same SQL)")).toFixed(3)} (target <= 1.15); ` +
      `with a text new to the guard = ${(p50("POST /v0/sql (new text each run)") / p50("engine direct (same SQL)")).toFixed(3)}; ` +
      `verbatim : typed = ${(p50("engine direct (same SQL)") / p50("typed columns (speed limit)")).toFixed(2)}; ` +
      `projections off : on = ${(p50("same SQL, projections off (before)") / p50("engine direct (same SQL)")).toFixed(2)}; ` +
      `verbatim p50 target <= 100 ms: ${p50("POST /v0/sql (verbatim candle)") <= 100 ? "met" : "not met"}`,
  );
  console.log(`peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
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
  });
