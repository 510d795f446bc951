/**
 * bench:sql-load — POST /v0/sql under a noisy-neighbour load: N keys each keep two 5-second
 * queries in flight (a self-join that runs into the engine's time limit, re-sent 100 ms after
 * every answer, refusals included), while one quiet key sends a small query every 200 ms, `--mixed`
 * callers keep catalog reads (GET /v0/markets) in flight, and health is probed every second from
 * another process with a 2-s deadline, its latency counted from the moment the probe was due: GET
 * /v0/health served over loopback HTTP by this process's request thread, and the health port
 * (HEALTH_PORT) answering from its worker thread. The event loop's delay under the load is printed too. Prints the quiet key's latency alone (baseline, same run) and under
 * the load, health's latency and failures alone and under the load, and how the noisy keys'
 * requests were answered (408 ran to the limit, 429 per-key cap, 503 bounded wait). The route
 * handlers run in-process (key check, rate limit, scheduler, guard, engine), on chDB and PGlite,
 * so everything shares one event loop, as in `npm start`.
 *
 *   npm run bench:sql-load [-- --noisy 10 --mixed 20 --seconds 30 --warmup 6]
 */
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { benchDataDir, summarize } from "./lib/harness";

const { values } = parseArgs({
  options: {
    noisy: { type: "string", default: "10" },
    mixed: { type: "string", default: "20" },
    seconds: { type: "string", default: "30" },
    warmup: { type: "string", default: "6" },
    baseline: { type: "string", default: "5" },
  },
});
const noisyKeys = Number(values.noisy);
const mixedCallers = Number(values.mixed);
/** A health probe slower than this is a failure: what an orchestrator's probe timeout would do. */
const HEALTH_DEADLINE_MS = 2_000;
const seconds = Number(values.seconds);
const warmup = Number(values.warmup);
const baselineSeconds = Number(values.baseline);

const { remove: removeDataDir } = benchDataDir("sql-load", { inProcess: true, env: { RATE_LIMIT_ENTERPRISE: "100000" } });

const T = "polymarket_orderbook_rust";
const SLOW = `SELECT count() FROM ${T} AS a, ${T} AS b WHERE a.market = 'slow' AND b.market = 'slow'`;
const SMALL = `SELECT count() AS n, max(timestamp) AS last FROM ${T} WHERE market = 'small'`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Probes each URL once a second for `seconds` from a child process, as an orchestrator would: the
 * probes' timing does not depend on this process's event loop. Latency runs from when a probe was
 * due; one that errs, answers non-200 or takes the deadline or longer fails.
 */
async function probeFromChild(urls: Record<string, string>, seconds: number): Promise<Record<string, { ms: number[]; failures: number }>> {
  const script = `
    const urls = ${JSON.stringify(urls)};
    const out = {};
    const start = performance.now();
    Promise.all(Object.entries(urls).map(async ([name, url]) => {
      const result = (out[name] = { ms: [], failures: 0 });
      for (let due = start; due < start + ${seconds * 1000}; due += 1000) {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
        let status = 0;
        try { const answer = await fetch(url, { signal: AbortSignal.timeout(${HEALTH_DEADLINE_MS}) }); await answer.text(); status = answer.status; } catch {}
        const ms = performance.now() - due;
        result.ms.push(ms);
        if (status !== 200 || ms >= ${HEALTH_DEADLINE_MS}) result.failures += 1;
      }
    })).then(() => process.stdout.write(JSON.stringify(out)));`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  let text = "";
  child.stdout.on("data", (chunk: Buffer) => (text += chunk.toString()));
  await new Promise((resolve) => child.once("exit", resolve));
  return JSON.parse(text) as Record<string, { ms: number[]; failures: number }>;
}

const summary = summarize;

async function main(): Promise<void> {
  const { getTickStores } = await import("@/lib/ticks");
  const { getDb } = await import("@/lib/db");
  const { ensureAccount, setPlan } = await import("@/lib/auth/accounts");
  const { createApiKey } = await import("@/lib/auth/api-keys");
  const { POST } = await import("@/app/v0/sql/route");
  const { GET: health } = await import("@/app/v0/health/route");
  const { GET: markets } = await import("@/app/v0/markets/route");
  const { healthMonitor } = await import("@/lib/status/health");
  const { startHealthPort } = await import("@/lib/status/health-port.mjs");
  const { closeTickStores } = await import("@/lib/ticks");
  const { closeDatabase } = await import("@/lib/db");
  const { flushUsage } = await import("@/lib/auth/usage");

  const stores = await getTickStores();
  for (const [market, rows] of [["slow", 200_000], ["small", 10]] as const) {
    await stores.writer.command({
      query: `INSERT INTO ${T} (timestamp, timestamp_received, market, event_type, data)
        SELECT now64(3) - toIntervalMillisecond(number), now64(3), '${market}', 'book', '{}' FROM numbers(${rows})`,
    });
  }
  const db = await getDb();
  const makeKey = async (name: string) => {
    const email = `${name}-${Date.now()}@bench.test`;
    const { account } = await ensureAccount(db, email);
    await setPlan(db, email, "enterprise");
    return (await createApiKey(db, account.id, name)).key;
  };
  const quietKey = await makeKey("quiet");
  const noisy = await Promise.all(Array.from({ length: noisyKeys }, (_, i) => makeKey(`noisy${i}`)));

  const call = async (key: string, query: string): Promise<{ status: number; ms: number }> => {
    const started = performance.now();
    const response = await POST(
      new Request("http://localhost/v0/sql", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ query }),
      }),
      { params: Promise.resolve({}) },
    );
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - started };
  };

  const get = async (handler: typeof health, url: string, key?: string): Promise<{ status: number; ms: number }> => {
    const started = performance.now();
    const response = await handler(new Request(url, { headers: key === undefined ? {} : { authorization: `Bearer ${key}` } }), { params: Promise.resolve({}) });
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - started };
  };
  // GET /v0/health served over loopback HTTP by this (the request) thread, as server.mjs serves it,
  // and the health port answering from its worker thread (HEALTH_PORT).
  const apiServer = createServer((request, response) => {
    void health(new Request(`http://localhost${request.url ?? "/"}`), { params: Promise.resolve({}) }).then(async (answer) => {
      const text = await answer.text();
      response.writeHead(answer.status, { "content-type": "application/json" }).end(text);
    });
  });
  await new Promise<void>((resolve) => apiServer.listen(0, "127.0.0.1", () => resolve()));
  const apiPort = (apiServer.address() as AddressInfo).port;
  const healthPort = await startHealthPort({ port: 0, host: "127.0.0.1" });
  healthMonitor().start();
  const probeUrls = { "GET /v0/health (request thread)": `http://127.0.0.1:${apiPort}/v0/health`, "health port /ready (worker thread)": `http://127.0.0.1:${healthPort.port}/ready` };
  const mixedKey = await makeKey("mixed");

  // Baseline, same run: the quiet key alone, health alone.
  const healthBaseline = probeFromChild(probeUrls, baselineSeconds);
  const alone: number[] = [];
  const baselineEnd = performance.now() + baselineSeconds * 1000;
  while (performance.now() < baselineEnd) {
    const { status, ms } = await call(quietKey, SMALL);
    if (status !== 200) throw new Error(`quiet query answered ${status} with no load`);
    alone.push(ms);
    await sleep(200);
  }
  const healthAlone = await healthBaseline;

  // Load: every noisy key keeps two slow queries in flight; the quiet key keeps asking.
  const start = performance.now();
  const end = start + seconds * 1000;
  const noisyStatuses = new Map<number, number>();
  const quietSteady: number[] = [];
  const quietAll: number[] = [];
  const quietStatuses = new Map<number, number>();
  const loops = noisy.flatMap((key) =>
    [0, 1].map(async () => {
      while (performance.now() < end) {
        const { status } = await call(key, SLOW);
        noisyStatuses.set(status, (noisyStatuses.get(status) ?? 0) + 1);
        await sleep(100);
      }
    }),
  );
  const mixedStatuses = new Map<number, number>();
  const mixedLoops = Array.from({ length: mixedCallers }, async () => {
    while (performance.now() < end) {
      const { status } = await get(markets, "http://localhost/v0/markets?limit=20", mixedKey);
      mixedStatuses.set(status, (mixedStatuses.get(status) ?? 0) + 1);
      // A network client's next request arrives as I/O: yield to the event loop as a socket would.
      await new Promise((resolve) => setImmediate(resolve));
    }
  });
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  const healthLoop = (async () => {
    await sleep(warmup * 1000);
    loopDelay.enable();
    const probes = await probeFromChild(probeUrls, Math.max(1, Math.floor((end - performance.now()) / 1000)));
    loopDelay.disable();
    return probes;
  })();
  const quietLoop = (async () => {
    while (performance.now() < end) {
      const at = performance.now();
      const { status, ms } = await call(quietKey, SMALL);
      quietStatuses.set(status, (quietStatuses.get(status) ?? 0) + 1);
      quietAll.push(ms);
      if (at - start >= warmup * 1000) quietSteady.push(ms);
      await sleep(200);
    }
  })();
  const [healthLoaded] = await Promise.all([healthLoop, ...loops, ...mixedLoops, quietLoop]);
  await healthPort.close();
  await new Promise((resolve) => apiServer.close(resolve));

  const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
  const base = summary(alone);
  const steady = summary(quietSteady);
  const all = summary(quietAll);
  const noisyTotal = [...noisyStatuses.values()].reduce((a, b) => a + b, 0);
  const share = (status: number) => `${(((noisyStatuses.get(status) ?? 0) / Math.max(1, noisyTotal)) * 100).toFixed(1)}%`;
  const refused = (noisyStatuses.get(429) ?? 0) + (noisyStatuses.get(503) ?? 0);

  process.stdout.write(
    `\nbench:sql-load — ${noisyKeys} noisy keys × 2 in flight (5-s queries), 1 quiet key, ${mixedCallers} catalog callers, health every 1 s, ${seconds} s, chDB, ${stores.readers.length} SQL slots\n\n`,
  );
  process.stdout.write("| health probe (from another process, every 1 s) | phase | probes | p50 | p99 | max | failures (non-200 or ≥ 2 s) |\n|---|---|---|---|---|---|---|\n");
  for (const name of Object.keys(probeUrls)) {
    for (const [phase, result] of [["alone (baseline, same run)", healthAlone[name]], [`under load, after ${warmup} s warm-up`, healthLoaded[name]]] as const) {
      const stats = summary(result?.ms ?? []);
      process.stdout.write(`| ${name} | ${phase} | ${stats.n} | ${fmt(stats.p50)} | ${fmt(stats.p99)} | ${fmt(stats.max)} | ${result?.failures ?? "?"} |\n`);
    }
  }
  process.stdout.write("\n");
  for (const name of Object.keys(probeUrls)) {
    const loaded = healthLoaded[name];
    const stats = summary(loaded?.ms ?? []);
    const met = stats.p99 <= 100 && loaded?.failures === 0;
    process.stdout.write(`${name} under load: p99 ${fmt(stats.p99)}, ${loaded?.failures ?? "?"} failures (target: p99 <= 100 ms and 0 failures: ${met ? "met" : "NOT met"})\n`);
  }
  process.stdout.write(
    `event-loop delay under load: p50 ${fmt(loopDelay.percentile(50) / 1e6)}, p99 ${fmt(loopDelay.percentile(99) / 1e6)}, max ${fmt(loopDelay.max / 1e6)}\n`,
  );
  process.stdout.write(`catalog callers' statuses: ${JSON.stringify(Object.fromEntries(mixedStatuses))}\n\n`);
  process.stdout.write("| quiet key | requests | p50 | p99 | max |\n|---|---|---|---|---|\n");
  process.stdout.write(`| alone (baseline, same run) | ${base.n} | ${fmt(base.p50)} | ${fmt(base.p99)} | ${fmt(base.max)} |\n`);
  process.stdout.write(`| under load, after ${warmup} s warm-up | ${steady.n} | ${fmt(steady.p50)} | ${fmt(steady.p99)} | ${fmt(steady.max)} |\n`);
  process.stdout.write(`| under load, whole run | ${all.n} | ${fmt(all.p50)} | ${fmt(all.p99)} | ${fmt(all.max)} |\n\n`);
  process.stdout.write(`quiet key statuses: ${JSON.stringify(Object.fromEntries(quietStatuses))}\n`);
  process.stdout.write(`quiet p99 under load / alone: ${(steady.p99 / base.p99).toFixed(1)}x (target: p99 <= 1000 ms: ${steady.p99 <= 1000 ? "met" : "NOT met"})\n\n`);
  process.stdout.write("| noisy keys | requests | 408 (ran to the limit) | 429 (per-key cap) | 503 (bounded wait) | refused (429+503) |\n|---|---|---|---|---|---|\n");
  process.stdout.write(
    `| ${noisyKeys} keys | ${noisyTotal} | ${share(408)} | ${share(429)} | ${share(503)} | ${((refused / Math.max(1, noisyTotal)) * 100).toFixed(1)}% |\n`,
  );
  const other = [...noisyStatuses.keys()].filter((status) => ![408, 429, 503].includes(status));
  if (other.length > 0) process.stdout.write(`other noisy statuses: ${JSON.stringify(Object.fromEntries(other.map((s) => [s, noisyStatuses.get(s)])))}\n`);
  await flushUsage().catch(() => undefined);
  await closeTickStores();
  await closeDatabase();
}

main()
  .then(() => {
    removeDataDir();
    process.exit(0);
  })
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    removeDataDir();
    process.exit(1);
  });
