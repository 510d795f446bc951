/**
 * bench:archive — issue figures for the archive, each next to a baseline measured in the same run:
 *  (1) one UTC hour of `--rows` (default 1M) recorded rows as a Parquet file through
 *      GET /v0/archive/{venue}/{date}/{HH}.parquet (the route handler behind a loopback node:http
 *      server, read to the last byte by fetch) vs the engine's own `SELECT … FORMAT Parquet` of the
 *      same rows (the same query, streamed out of the engine and discarded): wall time and the RSS
 *      growth of this process (it is the server: chDB runs in-process) while each runs. The route is
 *      measured cold (first request: the manifest's checksum pass and the file's SHA-256 pass are
 *      built and stored) and warm (stats cached: what every later download costs).
 *  (2) the Kalshi recorder's frame path (KalshiRecorder.onFrame: normalize, dedup, buffer, live
 *      book) and its normalizer alone vs JSON.parse of the same frames, in events per second.
 *
 *   npm run bench:archive [-- --rows 1000000 --frames 300000 --runs 4]
 */
import { createServer, get } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { parseArgs } from "node:util";
import { benchDataDir, summarize } from "./lib/harness";
import { loadLine, memoryReport } from "./lib/memory";

const { values } = parseArgs({ options: { rows: { type: "string", default: "1000000" }, frames: { type: "string", default: "300000" }, runs: { type: "string", default: "4" } } });
const ROWS = Number(values.rows);
const FRAMES = Number(values.frames);
const RUNS = Number(values.runs);

const { dir: dataDir, remove: removeDataDir } = benchDataDir("archive", { inProcess: true, env: { RATE_LIMIT_ENTERPRISE: "100000000" } });

const HOUR_MS = 3_600_000;
const mb = (bytes: number) => (bytes / 1_048_576).toFixed(0);

/** Node's own memory: the JS heap plus Buffers and other memory V8 accounts outside it (not chDB's). */
const nodeMemory = () => {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external + usage.arrayBuffers;
};

/**
 * Runs `task` while sampling every 10 ms; returns its time, the growth of this process's RSS (chDB
 * runs in-process, so the engine's memory is in it) and the growth of Node's own memory.
 */
async function measured<T>(task: () => Promise<T>): Promise<{ ms: number; rssGrowthMb: number; nodeGrowthMb: number; result: T }> {
  const before = process.memoryUsage().rss;
  const nodeBefore = nodeMemory();
  let peak = before;
  let nodePeak = nodeBefore;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().rss);
    nodePeak = Math.max(nodePeak, nodeMemory());
  };
  const sampler = setInterval(sample, 10);
  const t0 = performance.now();
  const result = await task();
  const ms = performance.now() - t0;
  clearInterval(sampler);
  sample();
  return { ms, rssGrowthMb: Number(mb(peak - before)), nodeGrowthMb: Number(mb(nodePeak - nodeBefore)), result };
}

const median = (xs: number[]) => summarize(xs).p50;

async function benchFiles(): Promise<void> {
  const { getTickStores } = await import("@/lib/ticks");
  const { getDb } = await import("@/lib/db");
  const { ensureAccount, setPlan } = await import("@/lib/auth/accounts");
  const { createApiKey } = await import("@/lib/auth/api-keys");
  const { GET: fileRoute } = await import("@/app/v0/archive/[venue]/[date]/[file]/route");
  const { hourFileQuery } = await import("@/lib/archive/files");
  const stores = await getTickStores();
  const db = await getDb();
  const hour = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 3 * HOUR_MS;
  const gen = performance.now();
  // One hour of Polymarket-shaped rows over 400 markets: books every 50 events, trades, price changes.
  await stores.writer.command({
    query: `INSERT INTO polymarket_orderbook_rust (timestamp, timestamp_received, market, event_type, data)
      SELECT fromUnixTimestamp64Milli(toInt64(${hour} + intDiv(number * ${HOUR_MS}, ${ROWS}))) AS ts, ts + toIntervalMillisecond(40),
        concat('0x', leftPad(hex(number % 400 + 1), 64, '0')),
        multiIf(number % 50 = 0, 'book', number % 33 = 5, 'last_trade_price', 'price_change'),
        multiIf(number % 50 = 0,
          concat('{"asset_id":"', toString(number % 800), '","bids":[', arrayStringConcat(arrayMap(i -> concat('["0.', toString(20 + i), '","', toString(100 + (number + i) % 900), '"]'), range(10)), ','), '],"asks":[', arrayStringConcat(arrayMap(i -> concat('["0.', toString(79 - i), '","', toString(100 + (number * 7 + i) % 900), '"]'), range(10)), ','), '],"hash":"', hex(cityHash64(number)), '","tick_size":"0.01"}'),
          number % 33 = 5,
          concat('{"asset_id":"', toString(number % 800), '","price":"0.', toString(40 + number % 20), '","size":"', toString(number % 500), '","side":"BUY","fee_rate_bps":"0","transaction_hash":"0x', hex(cityHash64(number)), '"}'),
          concat('{"asset_id":"', toString(number % 800), '","price":"0.', toString(20 + number % 60), '","size":"', toString(number % 5000), '","side":"', if(number % 3 = 0, 'SELL', 'BUY'), '","best_bid":"0.39","best_ask":"0.41","hash":"', hex(cityHash64(number)), '"}'))
      FROM numbers(${ROWS})`,
  });
  await stores.writer.command({ query: "OPTIMIZE TABLE polymarket_orderbook_rust FINAL" });
  console.log(`one hour of ${ROWS.toLocaleString("en")} rows generated in ${((performance.now() - gen) / 1000).toFixed(1)} s`);

  const email = `bench-archive-${Date.now()}@example.test`;
  const { account } = await ensureAccount(db, email);
  await setPlan(db, email, "enterprise");
  const key = (await createApiKey(db, account.id, "bench")).key;
  const iso = new Date(hour).toISOString();
  const params = { venue: "polymarket", date: iso.slice(0, 10), file: `${iso.slice(11, 13)}.parquet` };
  const server = createServer((req, res) => {
    const headers = new Headers({ authorization: `Bearer ${key}` });
    void fileRoute(new Request(`http://127.0.0.1${req.url ?? "/"}`, { headers }), { params: Promise.resolve(params) }).then((response) => {
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body === null) res.end();
      else Readable.fromWeb(response.body as WebReadableStream<Uint8Array>).pipe(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v0/archive/${params.venue}/${params.date}/${params.file}`;
  // The client counts bytes off the socket (as curl would): node:http, no Web streams on its side.
  const download = () =>
    new Promise<number>((resolve, reject) => {
      get(url, (response) => {
        if (response.statusCode !== 200) reject(new Error(`HTTP ${response.statusCode}`));
        let bytes = 0;
        response.on("data", (chunk: Buffer) => (bytes += chunk.length));
        response.on("end", () => resolve(bytes));
        response.on("error", reject);
      }).on("error", reject);
    });
  const engine = async () => {
    let bytes = 0;
    for await (const chunk of stores.streamQuery(hourFileQuery({ venue: "polymarket", table: "polymarket_orderbook_rust", start: hour }), "Parquet")) bytes += chunk.length;
    return bytes;
  };

  const cold = await measured(download);
  const warm: Array<{ ms: number; rssGrowthMb: number; nodeGrowthMb: number }> = [];
  const base: Array<{ ms: number; rssGrowthMb: number; nodeGrowthMb: number }> = [];
  let bytes = 0;
  for (let i = 0; i < RUNS; i += 1) {
    // Alternate which goes first: the first of a pair pays for whatever the other left cold.
    const first = i % 2 === 0 ? await measured(engine) : await measured(download);
    const second = i % 2 === 0 ? await measured(download) : await measured(engine);
    const b = i % 2 === 0 ? first : second;
    const w = i % 2 === 0 ? second : first;
    base.push(b);
    warm.push(w);
    if (w.result !== b.result) throw new Error(`the route sent ${w.result} bytes, the engine wrote ${b.result}`);
    bytes = b.result;
  }
  server.close();
  const baseMs = median(base.map((r) => r.ms));
  const warmMs = median(warm.map((r) => r.ms));
  console.log(`\n(1) one hour, ${ROWS.toLocaleString("en")} rows -> Parquet (zstd) ${mb(bytes)} MB (${bytes.toLocaleString("en")} bytes); median of ${RUNS} runs`);
  const most = (runs: Array<{ rssGrowthMb: number; nodeGrowthMb: number }>, key: "rssGrowthMb" | "nodeGrowthMb") => Math.max(...runs.map((r) => r[key]));
  console.log("| path | time | process RSS growth (engine included) | Node heap + buffers growth | vs engine |");
  console.log("|---|---|---|---|---|");
  console.log(`| engine: SELECT … FORMAT Parquet, streamed and discarded (baseline) | ${(baseMs / 1000).toFixed(2)} s | ${most(base, "rssGrowthMb")} MB | ${most(base, "nodeGrowthMb")} MB | 1.00× |`);
  console.log(`| GET …/HH.parquet, stats cached (every download after the first) | ${(warmMs / 1000).toFixed(2)} s | ${most(warm, "rssGrowthMb")} MB | ${most(warm, "nodeGrowthMb")} MB | ${(warmMs / baseMs).toFixed(2)}× |`);
  console.log(`| GET …/HH.parquet, first request (checksum + file hash built, then streamed) | ${(cold.ms / 1000).toFixed(2)} s | ${cold.rssGrowthMb} MB | ${cold.nodeGrowthMb} MB | ${(cold.ms / baseMs).toFixed(2)}× |`);
}

/** Kalshi channel frames as the venue sends them: a snapshot per market, then deltas and trades. */
function kalshiFrames(count: number): string[] {
  const frames: string[] = [];
  const markets = 200;
  let seq = 0;
  for (let m = 0; m < markets; m += 1) {
    seq += 1;
    const yes = Array.from({ length: 20 }, (_, i) => [`0.${String(10 + i).padStart(2, "0")}00`, `${100 + i}.00`]);
    const no = Array.from({ length: 20 }, (_, i) => [`0.${String(40 + i).padStart(2, "0")}00`, `${200 + i}.00`]);
    frames.push(JSON.stringify({ type: "orderbook_snapshot", sid: 1, seq, msg: { market_ticker: `KXBENCH-${m}`, market_id: `id-${m}`, yes_dollars_fp: yes, no_dollars_fp: no } }));
  }
  const t0 = Date.now();
  for (let i = 0; frames.length < count; i += 1) {
    const ticker = `KXBENCH-${(i * 7919) % markets}`;
    if (i % 10 === 9) {
      frames.push(JSON.stringify({ type: "trade", sid: 2, msg: { trade_id: `t-${i}`, market_ticker: ticker, yes_price_dollars: "0.4500", no_price_dollars: "0.5500", count_fp: `${1 + (i % 40)}.00`, taker_side: i % 2 === 0 ? "yes" : "no", ts: Math.floor((t0 + i) / 1000), ts_ms: t0 + i } }));
      continue;
    }
    seq += 1;
    const price = `0.${String(10 + (i % 50)).padStart(2, "0")}00`;
    frames.push(JSON.stringify({ type: "orderbook_delta", sid: 1, seq, msg: { market_ticker: ticker, market_id: "id", price_dollars: price, delta_fp: `${i % 3 === 0 ? "-" : ""}${1 + (i % 30)}.00`, side: i % 2 === 0 ? "yes" : "no", ts_ms: t0 + i } }));
  }
  return frames;
}

async function benchRecorder(): Promise<void> {
  const { KalshiNormalizer } = await import("@/lib/recorder/kalshi/normalize");
  const { KalshiRecorder } = await import("@/lib/recorder/kalshi/recorder");
  const { getTickStores } = await import("@/lib/ticks");
  const { generateKeyPairSync } = await import("node:crypto");
  const stores = await getTickStores();
  const frames = kalshiFrames(FRAMES);
  const rate = (ms: number) => Math.round(frames.length / (ms / 1000));
  const results: Record<string, number[]> = { parse: [], normalize: [], recorder: [], inserting: [] };
  for (let run = 0; run < RUNS; run += 1) {
    let t = performance.now();
    let sink = 0;
    for (const frame of frames) sink += (JSON.parse(frame) as { seq?: number }).seq ?? 0;
    results.parse?.push(performance.now() - t);
    const normalizer = new KalshiNormalizer();
    t = performance.now();
    for (const frame of frames) sink += normalizer.normalize(frame, Date.now()).rows.length;
    results.normalize?.push(performance.now() - t);
    if (sink < 0) console.log(sink);
    const pem = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    // The recorder's own work per frame: its writer's inserts go to a client that reads the TSV
    // body and drops it (a ClickHouse server does the parsing in another process). Then with the
    // inserts into the embedded engine (same process, same 2 cores): the embedded deployment.
    // Frames arrive a batch per event-loop turn, as off a socket; the writer flushes every 500 ms.
    const discard = {
      insert: async ({ values }: { values: AsyncIterable<unknown> }) => {
        for await (const chunk of values) sink += String(chunk).length > 0 ? 1 : 0;
        return { executed: true, query_id: "", response_headers: {} };
      },
    } as unknown as typeof stores.writer;
    for (const [label, client] of [
      ["recorder", discard],
      ["inserting", stores.writer],
    ] as const) {
      const recorder = new KalshiRecorder({ writer: client, wsUrl: "ws://127.0.0.1:9/unused", credentials: { keyId: "bench", privateKey: pem }, tickers: async () => [], maxMarkets: 0, writerOptions: { highWaterRows: 10_000_000, maxBufferedRows: 10_000_000 } });
      await stores.writer.command({ query: "TRUNCATE TABLE kalshi_orderbook" });
      t = performance.now();
      const start = Date.now();
      for (let i = 0; i < frames.length; i += 1) {
        recorder.onFrame(frames[i] ?? "", start + i);
        if (i % 500 === 499) await new Promise((resolve) => setImmediate(resolve));
      }
      results[label]?.push(performance.now() - t);
      await recorder.writer.flush();
    }
  }
  const row = (label: string, times: number[], baseline: number) => `| ${label} | ${rate(median(times)).toLocaleString("en")} | ${(rate(median(times)) / baseline).toFixed(2)}× |`;
  const parseRate = rate(median(results.parse ?? []));
  console.log(`\n(2) Kalshi channel: ${frames.length.toLocaleString("en")} frames (200 snapshots of 20+20 levels, deltas, 10% trades); median of ${RUNS} runs`);
  console.log("| path | events/s | vs JSON.parse |");
  console.log("|---|---|---|");
  console.log(`| JSON.parse of each frame (baseline) | ${parseRate.toLocaleString("en")} | 1.00× |`);
  console.log(row("KalshiNormalizer.normalize (parse + rows)", results.normalize ?? [], parseRate));
  console.log(row("KalshiRecorder.onFrame (normalize, dedup, live books, batched TSV inserts to a client that drops them)", results.recorder ?? [], parseRate));
  console.log(row("KalshiRecorder.onFrame with the writer inserting into the embedded engine as it goes", results.inserting ?? [], parseRate));
}

async function main(): Promise<void> {
  console.log(`bench:archive — data dir ${dataDir}, node ${process.version}; ${loadLine("at start")}`);
  await benchFiles();
  await benchRecorder();
  console.log(`\n${loadLine("at end")}`);
  console.log(memoryReport());
  const { closeTickStores } = await import("@/lib/ticks");
  const { closeDatabase } = await import("@/lib/db");
  await closeTickStores();
  await closeDatabase();
}

/** The temp data dir goes with the run, whatever its outcome. */
function cleanup(): void {
  removeDataDir();
}

main().then(
  () => {
    cleanup();
    process.exit(0);
  },
  (error: unknown) => {
    console.error(error);
    cleanup();
    process.exit(1);
  },
);
