/**
 * `npm run bench:stream`: live fan-out over /ws on loopback, against the stack's physical limit
 * measured in the same run.
 *
 * A publisher replays the recorded market-channel frames (100 assets) at a fixed rate of book
 * updates through the recorder's live path. Subscribers run in their own processes
 * (scripts/bench/lib/stream-subscribers.ts), each client holding one subscription: the firehose,
 * or one market's 10 books. Setups, each with fresh server processes (scripts/bench/lib/stream-node.ts):
 *   bare ws      the baseline: a plain `ws` server writing pre-built frames (one buffer per tick
 *                per distinct subscription, no per-subscriber work) - what this machine can deliver
 *   in-process   Brier's /ws handler with the publisher in the same process (the embedded setup)
 *   NATS         a publisher process and two web instances on NATS and PostgreSQL, subscribers split
 * Per run: book updates published/s, data messages and bytes delivered/s, publish-to-receive latency
 * p50/p99/max, staleness (every 100 ms, how old each client's newest book is: p99 and max), server
 * CPU (% of one core, all server processes of the setup) and peak RSS, and delivered/s as a ratio of
 * the bare baseline's for the same mode and subscribers.
 *
 * Options (env): BENCH_RATE (5000), BENCH_SECONDS (10), BENCH_SUBSCRIBERS ("100,1000,5000"),
 * BENCH_MODES ("firehose,market"), BENCH_SETUPS ("bare,inproc,nats"), STREAM_TICK_MS (20),
 * NATS_URL (nats://127.0.0.1:4222), BENCH_PG_URL (postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_PROFILE=1 (a CPU profile of each Brier server process, summarized at the end),
 * BENCH_DIAG_FILE=<path> (once a second, a JSON line per process appended there: a web instance's
 * books in from the bus and their age on arrival, event-loop delay and bytes unsent in its sockets;
 * a subscriber process's event-loop delay and messages received).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { histogramPercentile } from "./lib/harness";
import { createBenchKey } from "./lib/keys";
import { monotonicMicros, newestProfile, summarizeProfile } from "./lib/profile";

const rate = Number(process.env.BENCH_RATE ?? 5000);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const warmupSeconds = 3;
const counts = (process.env.BENCH_SUBSCRIBERS ?? "100,1000,5000").split(",").map(Number);
const modes = (process.env.BENCH_MODES ?? "firehose,market").split(",") as Array<"firehose" | "market">;
const setups = (process.env.BENCH_SETUPS ?? "bare,inproc,nats").split(",");
const natsUrl = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const pgUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const profileDir = process.env.BENCH_PROFILE === "1" ? mkdtempSync(path.join(tmpdir(), "brier-bench-stream-prof-")) : undefined;

type Line = Record<string, number | string | Array<[number, number]>>;

interface Proc {
  child: ChildProcess;
  port: number | undefined;
  /** The last line of each type the process printed. */
  last: Record<string, Line>;
  maxRss: number;
  next: (type: string) => Promise<Line>;
  send: (command: string) => void;
  stop: () => Promise<void>;
}

function startProc(script: string, env: Record<string, string>): Promise<Proc> {
  const child = spawn(path.resolve("node_modules/.bin/tsx"), ["--conditions=react-server", script], {
    env: { ...process.env, NODE_ENV: "production", LOG_LEVEL: "error", BACKGROUND_JOBS: "false", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const waiters: Array<{ type: string; resolve: (line: Line) => void }> = [];
  return new Promise((resolve, reject) => {
    const proc: Proc = {
      child,
      port: undefined,
      last: {},
      maxRss: 0,
      next: (type) => new Promise((done) => waiters.push({ type, resolve: done })),
      send: (command) => child.stdin?.write(`${command}\n`),
      stop: () =>
        new Promise((done) => {
          if (child.exitCode !== null) return done();
          child.once("exit", () => done());
          child.kill("SIGTERM");
          setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
        }),
    };
    let buffer = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      let index: number;
      while ((index = buffer.indexOf("\n")) >= 0) {
        const line = JSON.parse(buffer.slice(0, index)) as Line;
        buffer = buffer.slice(index + 1);
        const type = String(line.type);
        if (type === "ready") {
          proc.port = typeof line.port === "number" ? line.port : undefined;
          resolve(proc);
        }
        proc.last[type] = line;
        proc.maxRss = Math.max(proc.maxRss, Number(line.rss ?? 0));
        for (const waiter of [...waiters]) {
          if (waiter.type !== type) continue;
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    });
    child.once("exit", (code) => reject(new Error(`${script} exited (${String(code)}):\n${stderr}`)));
  });
}

const serverEnv = {
  BENCH_RATE: String(rate),
  STREAM_CONNECTIONS_PER_KEY: "100000",
  STREAM_SUBSCRIPTIONS_ENTERPRISE: "1000000",
  RATE_LIMIT_ENTERPRISE: "1000000",
};

function startServer(role: string, env: Record<string, string>): Promise<Proc> {
  const profile = profileDir !== undefined && role !== "baseline" && role !== "publisher";
  const dir = profile ? path.join(profileDir, `${role}-${randomBytes(3).toString("hex")}`) : undefined;
  if (dir !== undefined) mkdirSync(dir, { recursive: true });
  return startProc("scripts/bench/lib/stream-node.ts", { ...serverEnv, BENCH_ROLE: role, ...env, ...(dir === undefined ? {} : { BENCH_PROFILE_DIR: dir }) });
}

function merge(into: Uint32Array, sparse: Array<[number, number]>): void {
  for (const [ms, n] of sparse) into[ms] = (into[ms] ?? 0) + n;
}

const percentile = histogramPercentile;

function maximum(histogram: Uint32Array): number {
  for (let ms = histogram.length - 1; ms >= 0; ms -= 1) if ((histogram[ms] ?? 0) > 0) return ms;
  return 0;
}

interface Row {
  setup: string;
  mode: string;
  subscribers: number;
  published: number;
  delivered: number;
  mbPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  staleP99: number;
  staleMax: number;
  closed: number;
  cpu: number;
  rssMb: string;
  load: string;
}

function cpuMicros(servers: Proc[]): number {
  let total = 0;
  for (const server of servers) for (const line of Object.values(server.last)) total += Number(line.cpuMicros ?? 0);
  return total;
}

async function measure(setup: string, mode: "firehose" | "market", publisher: Proc, servers: Proc[], webs: Proc[], key: string, n: number): Promise<Row> {
  const ports = webs.map((web) => String(web.port ?? 0)).join(",");
  const processes = n <= 100 ? 1 : n <= 1000 ? 2 : 4;
  // Started together: each connects its share while the others do.
  const subscribers: Proc[] = await Promise.all(
    Array.from({ length: processes }, (_, i) => {
      const share = Math.floor(n / processes) + (i < n % processes ? 1 : 0);
      const offset = i * Math.floor(n / processes) + Math.min(i, n % processes);
      return startProc("scripts/bench/lib/stream-subscribers.ts", {
        BENCH_PORTS: ports,
        BENCH_KEY: key,
        BENCH_CLIENTS: String(share),
        BENCH_OFFSET: String(offset),
        BENCH_MODE: mode,
      });
    }),
  );
  try {
    await Promise.all(subscribers.map((s) => (s.send("subscribe"), s.next("subscribed"))));
    await new Promise((resolve) => setTimeout(resolve, warmupSeconds * 1000));
    await Promise.all(subscribers.map((s) => (s.send("reset"), s.next("reset"))));
    const publishedBefore = Number(publisher.last.publisher?.published ?? 0);
    const cpuBefore = cpuMicros(servers);
    for (const server of servers) server.maxRss = 0;
    const windowStart = monotonicMicros();
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const reports = await Promise.all(subscribers.map((s) => (s.send("report"), s.next("report"))));
    const elapsed = (performance.now() - started) / 1000;
    windows.push({ setup, mode, n, from: windowStart, to: monotonicMicros() });
    const latency = new Uint32Array(60_001);
    const staleness = new Uint32Array(60_001);
    let received = 0;
    let bytes = 0;
    let closed = 0;
    for (const report of reports) {
      received += Number(report.received);
      bytes += Number(report.bytes);
      closed += Number(report.closed);
      merge(latency, report.latency as Array<[number, number]>);
      merge(staleness, report.staleness as Array<[number, number]>);
    }
    return {
      setup,
      mode,
      subscribers: n,
      published: Math.round((Number(publisher.last.publisher?.published ?? 0) - publishedBefore) / elapsed),
      delivered: Math.round(received / elapsed),
      mbPerSecond: bytes / elapsed / 1e6,
      p50: percentile(latency, 0.5),
      p99: percentile(latency, 0.99),
      max: maximum(latency),
      staleP99: percentile(staleness, 0.99),
      staleMax: maximum(staleness),
      closed,
      cpu: ((cpuMicros(servers) - cpuBefore) / 1e6 / elapsed) * 100,
      rssMb: servers.map((server) => (server.maxRss / 1024 / 1024).toFixed(0)).join(" + "),
      load: loadavg()
        .map((value) => value.toFixed(2))
        .join(" "),
    };
  } finally {
    for (const s of subscribers) s.send("close");
    await Promise.all(subscribers.map((s) => s.stop()));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

const windows: Array<{ setup: string; mode: string; n: number; from: number; to: number }> = [];

async function runSetup(setup: string, rows: Row[]): Promise<void> {
  const runs = async (label: string, publisher: Proc, servers: Proc[], webs: Proc[], key: string) => {
    for (const mode of modes) {
      for (const n of counts) {
        const row = await measure(label, mode, publisher, servers, webs, key, n);
        rows.push(row);
        process.stderr.write(`${JSON.stringify(row)}\n`);
      }
    }
  };
  if (setup === "bare") {
    const node = await startServer("baseline", {});
    try {
      await runs("bare ws (baseline)", node, [node], [node], "none");
    } finally {
      await node.stop();
    }
  } else if (setup === "inproc") {
    const dataDir = mkdtempSync(path.join(tmpdir(), "brier-bench-stream-"));
    try {
      const key = await createBenchKey({ databaseUrl: undefined, dataDir });
      const node = await startServer("inproc", { DATA_DIR: dataDir });
      try {
        await runs("in-process (1 server)", node, [node], [node], key);
      } finally {
        await node.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  } else if (setup === "nats") {
    // Two web instances share PostgreSQL (keys, limits) and NATS (books): a throwaway database.
    const database = `brier_bench_stream_${process.pid}`;
    const admin = postgres(pgUrl, { max: 1, onnotice: () => undefined });
    await admin.unsafe(`create database ${database}`);
    const url = new URL(pgUrl);
    url.pathname = `/${database}`;
    const prefix = `brier-bench-${randomBytes(3).toString("hex")}.live`;
    const procs: Proc[] = [];
    try {
      const key = await createBenchKey({ databaseUrl: url.toString(), dataDir: tmpdir() });
      const env = { DATABASE_URL: url.toString(), NATS_URL: natsUrl, NATS_SUBJECT_PREFIX: prefix };
      const webs = [await startServer("web", env), await startServer("web", env)];
      procs.push(...webs);
      const publisher = await startServer("publisher", env);
      procs.push(publisher);
      await runs("NATS (publisher + 2 web)", publisher, [...webs, publisher], webs, key);
    } finally {
      await Promise.all(procs.map((proc) => proc.stop()));
      await admin.unsafe(`drop database if exists ${database} with (force)`);
      await admin.end();
    }
  }
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  for (const setup of setups) await runSetup(setup, rows);
  const baseline = (row: Row) => rows.find((r) => r.setup.startsWith("bare") && r.mode === row.mode && r.subscribers === row.subscribers);
  console.log(
    `\nbench:stream — WebSocket subscribers in their own processes over loopback, ${rate} book updates/s targeted over 100 assets, ${process.env.STREAM_TICK_MS ?? 20} ms tick, ${seconds} s measured after ${warmupSeconds} s warm-up`,
  );
  console.log("| setup | mode | subscribers | published/s | delivered msgs/s | MB/s | vs bare | p50 ms | p99 ms | max ms | stale p99 ms | stale max ms | closed | server CPU % | server RSS MB | load |");
  console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|");
  for (const r of rows) {
    const base = baseline(r);
    const ratio = base === undefined || base.delivered === 0 ? "" : `${(r.delivered / base.delivered).toFixed(2)}x`;
    console.log(
      `| ${r.setup} | ${r.mode} | ${r.subscribers} | ${r.published} | ${r.delivered} | ${r.mbPerSecond.toFixed(1)} | ${ratio} | ${r.p50} | ${r.p99} | ${r.max} | ${r.staleP99} | ${r.staleMax} | ${r.closed} | ${r.cpu.toFixed(0)} | ${r.rssMb} | ${r.load} |`,
    );
  }
  console.log(
    "\nA subscriber gets, once per tick, the latest book of every symbol that changed since its last write: delivered/s below published/s x books followed is merging, never an older book after a newer. `closed`: clients the server closed as slow consumers.",
  );
  if (profileDir !== undefined) {
    const from = Math.min(...windows.map((w) => w.from));
    const to = Math.max(...windows.map((w) => w.to));
    for (const entry of (await import("node:fs")).readdirSync(profileDir)) {
      const file = newestProfile(path.join(profileDir, entry));
      if (file !== undefined) console.log(`\n${entry}:\n${summarizeProfile(file, { from, to })}`);
    }
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${String((error as Error).stack ?? error)}\n`);
    process.exit(1);
  },
);
