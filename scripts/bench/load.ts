/**
 * `npm run bench:load`: the mixed load a crowd puts on a fresh server, on the embedded default
 * (PGlite + chDB) and on PostgreSQL (+ embedded chDB), in one command. Each setup gets a fresh
 * DATA_DIR (and a fresh PostgreSQL database), the mock venue's catalog, one day of demo ticks and
 * `--keys` enterprise keys, then `npm start`'s server (server.mjs, background jobs on, as a user
 * runs it) is started and loaded at once, for `--rounds` rounds of `--seconds` with `--idle`
 * seconds of rest in between. `--connections` clients each send the next request of a mix of
 * routes (listing, search, one market, its book, trades and prices, a candle over /v0/sql, a
 * pass-through call, the status page) back to back with a 10-s client timeout, while a prober asks
 * `GET /v0/health` and the health port's `/ready` once a second with a 10-s timeout.
 *
 * Prints per round: requests/s, client timeouts, health failures, p50/p99/max per route, the
 * server's event-loop delay p99/max (a probe loaded into the server, scripts/bench/lib/loop-probe.mjs)
 * and its RSS before, after the round and after the rest. The first round starts as soon as the
 * server answers: a stall of the first minute is in it.
 *
 *   NEXT_DIST_DIR=.next-fresh npm run build
 *   NEXT_DIST_DIR=.next-fresh npm run bench:load [-- --rounds 2 --seconds 60 --connections 200 --keys 10
 *       --setups embedded,postgres --idle 10 --port 3270 --profile /tmp/prof-load]
 *
 * The issue's probe is the default (200 connections x 60 s, 2 rounds). Rate limits are raised for
 * the bench keys (the limiter still counts every request) so the figures are the server's, not the
 * plan's; BENCH_PG_URL names the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres).
 */
import { randomBytes } from "node:crypto";
import { cpSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { ensureAccount, setPlan } from "@/lib/auth/accounts";
import { createApiKey } from "@/lib/auth/api-keys";
import { openDatabase, resultRows, type DatabaseHandle } from "@/lib/db";
import { publicCatalogVenues } from "@/lib/catalog/venues";
import { ingestVenues } from "@/lib/catalog/ingest";
import { demoMarketsFromCatalog, writeDemoTicks } from "@/lib/demo/ticks";
import { openTickStores } from "@/lib/ticks";
import { benchDataDir, printTable, summarize } from "./lib/harness";
import { loadLine, processMemory } from "./lib/memory";
import { newestProfile, summarizeProfile, monotonicMicros } from "./lib/profile";
import { startServer, type RunningServer } from "./lib/server";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "2" },
    seconds: { type: "string", default: "60" },
    connections: { type: "string", default: "200" },
    keys: { type: "string", default: "10" },
    idle: { type: "string", default: "10" },
    days: { type: "string", default: "1" },
    setups: { type: "string", default: "embedded,postgres" },
    port: { type: "string", default: "3270" },
    // A CPU profile of each server's first round (the start-up minute), summarised by owner.
    profile: { type: "string", default: "" },
  },
});
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const keyCount = Number(values.keys);
const idleSeconds = Number(values.idle);
const days = Number(values.days);
const setups = values.setups.split(",").map((s) => s.trim()).filter((s): s is Setup => s === "embedded" || s === "postgres");
const basePort = Number(values.port);
const profileDir = values.profile;
const adminUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const CLIENT_TIMEOUT_MS = 10_000;

type Setup = "embedded" | "postgres";

interface Prepared {
  setup: Setup;
  dataDir: string;
  databaseUrl: string | undefined;
  database: string | undefined;
  keys: string[];
  /** Market id, a YES outcome id and the market's condition id, for the routes that need one. */
  markets: Array<{ id: string; outcomeId: string; conditionId: string }>;
  /** A word of a market title, for the search route. */
  word: string;
}

async function seedCatalog(handle: DatabaseHandle): Promise<void> {
  // Without the poll's follow-ups (price history, matching): they would open this process's default
  // stores; the server's own first poll runs them, as on a user's first start.
  const [run] = await ingestVenues(handle.db, { venues: ["mock"], trigger: "cli" });
  if (run?.outcome !== "succeeded") throw new Error(`mock catalog ingest ${run?.outcome ?? "missing"}: ${run?.error ?? ""}`);
}

async function createKeys(handle: DatabaseHandle, setup: Setup): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < keyCount; i += 1) {
    const email = `bench-load-${setup}-${i}-${Date.now()}@example.test`;
    const { account } = await ensureAccount(handle.db, email);
    await setPlan(handle.db, email, "enterprise");
    keys.push((await createApiKey(handle.db, account.id, "bench")).key);
  }
  return keys;
}

async function marketsOf(handle: DatabaseHandle): Promise<Prepared["markets"]> {
  const rows = resultRows<{ id: string; outcome_id: string; condition_id: string }>(
    await handle.db.execute(sql`select id, outcomes->0->>'outcomeId' as outcome_id, contract_address as condition_id
      from markets join market_ranks using (id) where markets.venue = 'mock' and markets.closed = false and contract_address is not null order by market_ranks.volume24h desc limit 20`),
  );
  return rows.map((r) => ({ id: r.id, outcomeId: r.outcome_id, conditionId: r.condition_id }));
}

async function wordOf(handle: DatabaseHandle): Promise<string> {
  const rows = resultRows<{ title: string }>(await handle.db.execute(sql`select title from markets where venue = 'mock' order by id limit 1`));
  const words = (rows[0]?.title ?? "").split(/[^A-Za-z]+/).filter((w) => w.length >= 5);
  return words[0] ?? "market";
}

/**
 * Every setup's stores, seeded before any server starts (an embedded store belongs to one process).
 * The ticks are written once, into the first setup's chDB, and copied to the others: the same
 * catalog (the mock venue is deterministic) and the same day of ticks everywhere.
 */
async function prepare(): Promise<Prepared[]> {
  const out: Prepared[] = [];
  let ticksDir: string | undefined;
  for (const setup of setups) {
    const dataDir = benchDataDir(`load-${setup}`).dir;
    let databaseUrl: string | undefined;
    let database: string | undefined;
    if (setup === "postgres") {
      database = `brier_bench_load_${process.pid}_${randomBytes(3).toString("hex")}`;
      const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
      await admin.unsafe(`create database ${database}`);
      await admin.end();
      const url = new URL(adminUrl);
      url.pathname = `/${database}`;
      databaseUrl = url.toString();
    }
    const handle = await openDatabase({ url: databaseUrl, dataDir: path.join(dataDir, "pg") });
    try {
      await seedCatalog(handle);
      if (ticksDir === undefined) {
        const stores = await openTickStores({ dataDir: path.join(dataDir, "ch") });
        try {
          const demo = await demoMarketsFromCatalog(handle.db, "mock");
          const t0 = performance.now();
          const written = await writeDemoTicks(stores.writer, demo, { days });
          console.log(`seeded ${written.rows.toLocaleString("en")} demo tick rows (${days} day(s), ${written.markets} markets) in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
        } finally {
          await stores.close();
        }
        ticksDir = path.join(dataDir, "ch");
      } else {
        cpSync(ticksDir, path.join(dataDir, "ch"), { recursive: true });
      }
      out.push({ setup, dataDir, databaseUrl, database, keys: await createKeys(handle, setup), markets: await marketsOf(handle), word: await wordOf(handle) });
    } finally {
      await handle.close();
    }
  }
  return out;
}

interface Route {
  name: string;
  method: "GET" | "POST";
  path: (i: number) => string;
  body?: (i: number) => string;
}

function routesFor(p: Prepared): Route[] {
  const market = (i: number) => p.markets[i % p.markets.length] ?? { id: "", outcomeId: "", conditionId: "" };
  const candle = (i: number) =>
    `SELECT toStartOfHour(timestamp) AS hour, argMin(toFloat64OrZero(JSONExtractString(data, 'best_bid')), timestamp) AS open, ` +
    `argMax(toFloat64OrZero(JSONExtractString(data, 'best_bid')), timestamp) AS close, count() AS ticks FROM polymarket_orderbook_rust ` +
    `WHERE market = '${market(i).conditionId}' AND event_type = 'price_change' AND JSONExtractString(data, 'asset_id') = '${market(i).outcomeId}' ` +
    `AND timestamp >= now() - INTERVAL 7 DAY GROUP BY hour ORDER BY hour`;
  return [
    { name: "GET /v0/markets", method: "GET", path: () => "/v0/markets?limit=20" },
    { name: "GET /v0/markets?query=", method: "GET", path: () => `/v0/markets?query=${encodeURIComponent(p.word)}` },
    { name: "GET /v0/markets/{id}", method: "GET", path: (i) => `/v0/markets/${market(i).id}` },
    { name: "GET /v0/markets/{id}/prices", method: "GET", path: (i) => `/v0/markets/${market(i).id}/prices` },
    { name: "GET /v0/orderbooks/{id}", method: "GET", path: (i) => `/v0/orderbooks/${market(i).outcomeId}` },
    { name: "GET /v0/trades/{id}", method: "GET", path: (i) => `/v0/trades/${market(i).outcomeId}?limit=50` },
    { name: "POST /v0/sql (candle)", method: "POST", path: () => "/v0/sql", body: (i) => JSON.stringify({ query: candle(i) }) },
    { name: "POST /api/mock/fetchOrderBook", method: "POST", path: () => "/api/mock/fetchOrderBook", body: (i) => JSON.stringify({ args: [market(i).outcomeId] }) },
    { name: "GET /v0/status", method: "GET", path: () => "/v0/status" },
  ];
}

interface Answer {
  status: number;
  ms: number;
  timedOut: boolean;
}

function request(agent: http.Agent | false, url: URL, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const done = (status: number, timedOut: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ status, ms: performance.now() - t0, timedOut });
    };
    const req = http.request(url, { method, agent, headers: body === undefined ? headers : { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) } }, (res) => {
      res.on("data", () => undefined);
      res.on("end", () => done(res.statusCode ?? 0, false));
      res.on("error", () => done(0, false));
    });
    // The client gives up, as a user's would: the request is aborted (the server sees a disconnect).
    const timer = setTimeout(() => {
      req.destroy();
      done(0, true);
    }, CLIENT_TIMEOUT_MS);
    req.on("error", () => done(0, false));
    req.end(body);
  });
}

interface RoundResult {
  round: number;
  rps: number;
  requests: number;
  timeouts: number;
  errors: number;
  statuses: Map<number, number>;
  perRoute: Map<string, number[]>;
  health: { failed: number; total: number; why: Map<string, number> };
  ready: { failed: number; total: number; why: Map<string, number> };
  loop: { p99: number; max: number };
  rssBefore: number | undefined;
  rssAfter: number | undefined;
  rssIdle: number | undefined;
  memoryAfter: ProbeLine | undefined;
}

interface ProbeLine {
  t: number;
  p99: number;
  max: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

function probeLines(file: string, from: number, to: number): ProbeLine[] {
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as ProbeLine)
    .filter((l) => l.t >= from && l.t <= to);
}

async function runRound(round: number, server: RunningServer, healthUrl: string, routes: Route[], keys: string[], loopFile: string): Promise<RoundResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const perRoute = new Map<string, number[]>(routes.map((r) => [r.name, []]));
  const statuses = new Map<number, number>();
  let timeouts = 0;
  let errors = 0;
  let requests = 0;
  let next = 0;
  const rssBefore = server.pid === undefined ? undefined : processMemory(server.pid)?.rssMb;
  const startedAt = Date.now();
  const end = performance.now() + seconds * 1000;
  const health = { failed: 0, total: 0, why: new Map<string, number>() };
  const ready = { failed: 0, total: 0, why: new Map<string, number>() };
  /** Counts a probe's answer; a failure by its status (or "timeout", "error"). */
  const tally = (into: typeof health, a: Answer) => {
    into.total += 1;
    if (a.status === 200) return;
    into.failed += 1;
    const why = a.timedOut ? "timeout" : a.status === 0 ? "error" : String(a.status);
    into.why.set(why, (into.why.get(why) ?? 0) + 1);
  };
  const probes: Array<Promise<void>> = [];
  const prober = setInterval(() => {
    // A fresh connection each time, as an orchestrator's probe.
    probes.push(
      request(false, new URL(`${server.url}/v0/health`), "GET", {}).then((a) => tally(health, a)),
      request(false, new URL(`${healthUrl}/ready`), "GET", {}).then((a) => tally(ready, a)),
    );
  }, 1000);
  await Promise.all(
    Array.from({ length: connections }, async (_, worker) => {
      const authorization = `Bearer ${keys[worker % keys.length]}`;
      while (performance.now() < end) {
        const i = next;
        next += 1;
        const route = routes[i % routes.length] as Route;
        const answer = await request(agent, new URL(`${server.url}${route.path(Math.floor(i / routes.length))}`), route.method, { authorization }, route.body?.(Math.floor(i / routes.length)));
        requests += 1;
        if (answer.timedOut) timeouts += 1;
        else if (answer.status === 0) errors += 1;
        else statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        perRoute.get(route.name)?.push(answer.ms);
      }
    }),
  );
  clearInterval(prober);
  await Promise.all(probes);
  agent.destroy();
  const finishedAt = Date.now();
  const rssAfter = server.pid === undefined ? undefined : processMemory(server.pid)?.rssMb;
  // A probe line is written a second after the loop turns: take the lines of the round and the one after.
  await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
  const rssIdle = server.pid === undefined ? undefined : processMemory(server.pid)?.rssMb;
  const lines = probeLines(loopFile, startedAt, finishedAt + 1500);
  return {
    round,
    rps: requests / ((finishedAt - startedAt) / 1000),
    requests,
    timeouts,
    errors,
    statuses,
    perRoute,
    health,
    ready,
    loop: { p99: Math.max(0, ...lines.map((l) => l.p99)), max: Math.max(0, ...lines.map((l) => l.max)) },
    rssBefore,
    rssAfter,
    rssIdle,
    memoryAfter: probeLines(loopFile, finishedAt, Date.now()).at(-1),
  };
}

const mb = (bytes: number) => `${Math.round(bytes / 1048576)}`;

const reasons = (why: Map<string, number>) => (why.size === 0 ? "" : ` (${[...why.entries()].map(([k, n]) => `${k}: ${n}`).join(", ")})`);

function printRound(setup: Setup, r: RoundResult): void {
  const codes = [...r.statuses.entries()].sort(([a], [b]) => a - b).map(([code, n]) => `${code}:${n}`).join(" ");
  console.log(
    `\n[${setup}] round ${r.round}: ${r.rps.toFixed(0)} req/s (${r.requests} requests; ${codes}), client timeouts ${r.timeouts}, ` +
      `connection errors ${r.errors}, /v0/health failed ${r.health.failed} of ${r.health.total}${reasons(r.health.why)}, ` +
      `health port /ready failed ${r.ready.failed} of ${r.ready.total}${reasons(r.ready.why)}`,
  );
  console.log(
    `[${setup}] round ${r.round}: event-loop delay p99 ${r.loop.p99.toFixed(0)} ms (worst second), max ${r.loop.max.toFixed(0)} ms; ` +
      `server RSS ${r.rssBefore ?? "?"} -> ${r.rssAfter ?? "?"} MB after the round -> ${r.rssIdle ?? "?"} MB after ${idleSeconds} s idle` +
      (r.memoryAfter === undefined
        ? ""
        : ` (heap used ${mb(r.memoryAfter.heapUsed)} of ${mb(r.memoryAfter.heapTotal)}, external ${mb(r.memoryAfter.external)}, array buffers ${mb(r.memoryAfter.arrayBuffers)} MB)`),
  );
  const header = ["route", "n", "p50 ms", "p99 ms", "max ms"];
  const rows = [...r.perRoute.entries()].map(([name, latencies]) => {
    const s = summarize(latencies);
    return [name, String(s.n), s.p50.toFixed(1), s.p99.toFixed(1), s.max.toFixed(0)];
  });
  printTable(header, rows);
}

async function runSetup(p: Prepared, port: number): Promise<RoundResult[]> {
  const loopFile = path.join(p.dataDir, "loop-probe.jsonl");
  const logFile = path.join(tmpdir(), `brier-bench-load-${p.setup}-${process.pid}.log`);
  const healthPort = port + 5;
  const t0 = performance.now();
  const server = await startServer({
    port,
    logFile,
    nodeArgs: [`--import=${path.resolve("scripts/bench/lib/loop-probe.mjs")}`, ...(profileDir === "" ? [] : ["--cpu-prof", `--cpu-prof-dir=${profileDir}`])],
    env: {
      DATA_DIR: p.dataDir,
      // On PostgreSQL the mock venue is polled only when listed: listed beside the public ones, so both setups poll the same venues.
      ...(p.databaseUrl === undefined ? {} : { DATABASE_URL: p.databaseUrl, CATALOG_VENUES: [...publicCatalogVenues, "mock"].join(",") }),
      HEALTH_PORT: String(healthPort),
      BENCH_LOOP_FILE: loopFile,
      LOG_LEVEL: "info",
      RATE_LIMIT_ENTERPRISE: "1000000000",
      PASSTHROUGH_MAX_CONCURRENT: String(connections),
    },
  });
  const profileFrom = monotonicMicros();
  const readyAt = Date.now();
  console.log(`\n[${p.setup}] server ready in ${((performance.now() - t0) / 1000).toFixed(1)} s (pid ${server.pid}, log ${logFile}); loading at once`);
  const results: RoundResult[] = [];
  try {
    const routes = routesFor(p);
    for (let round = 1; round <= rounds; round += 1) {
      const result = await runRound(round, server, `http://127.0.0.1:${healthPort}`, routes, p.keys, loopFile);
      printRound(p.setup, result);
      results.push(result);
    }
  } finally {
    const profileTo = monotonicMicros();
    // Every second whose longest event-loop turn passed 500 ms, by its time since the server was ready.
    const stalls = probeLines(loopFile, readyAt, Date.now()).filter((l) => l.max > 500);
    console.log(
      `\n[${p.setup}] event-loop turns over 500 ms: ${stalls.length === 0 ? "none" : stalls.map((l) => `t+${Math.round((l.t - readyAt) / 1000)} s ${Math.round(l.max)} ms`).join(", ")}`,
    );
    const log = readFileSync(logFile, "utf8");
    const count = (pattern: RegExp) => log.split("\n").filter((line) => pattern.test(line)).length;
    console.log(`[${p.setup}] server log: ${count(/"level":"error"/)} error lines (${count(/API front failed/)} "API front failed"), ${count(/"level":"warn"/)} warn, ${count(/client disconnected/)} client disconnects`);
    await server.stop();
    if (profileDir !== "") {
      const file = newestProfile(profileDir, server.pid);
      if (file !== undefined) console.log(`\n[${p.setup}] profile of the rounds:\n${summarizeProfile(file, { from: profileFrom, to: profileTo })}`);
    }
  }
  return results;
}

async function main(): Promise<void> {
  console.log(
    `bench:load — ${connections} connections x ${seconds} s, ${rounds} round(s), ${keyCount} enterprise keys, ${days} day(s) of demo ticks, setups: ${setups.join(", ")}`,
  );
  console.log(loadLine("at start"));
  const prepared = await prepare();
  const summary: string[] = [];
  try {
    for (const [i, p] of prepared.entries()) {
      const results = await runSetup(p, basePort + i * 2);
      for (const r of results) {
        const worst = Math.max(...[...r.perRoute.values()].map((l) => Math.max(0, ...l)));
        summary.push(
          `| ${p.setup} | ${r.round} | ${r.rps.toFixed(0)} | ${r.timeouts} | ${r.health.failed} of ${r.health.total} | ${r.ready.failed} of ${r.ready.total} | ` +
            `${(worst / 1000).toFixed(1)} s | ${r.loop.p99.toFixed(0)} / ${r.loop.max.toFixed(0)} ms | ${r.rssBefore ?? "?"} → ${r.rssAfter ?? "?"} → ${r.rssIdle ?? "?"} MB |`,
        );
      }
    }
  } finally {
    for (const p of prepared) {
      rmSync(p.dataDir, { recursive: true, force: true });
      if (p.database !== undefined) {
        const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
        await admin.unsafe(`drop database if exists ${p.database} with (force)`);
        await admin.end();
      }
    }
  }
  console.log("\n| setup | round | requests/s | client timeouts | /v0/health failed | /ready failed | slowest answer | event-loop delay p99 / max | server RSS before → after → idle |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const line of summary) console.log(line);
  console.log(loadLine("at end"));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
