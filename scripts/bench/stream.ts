/**
 * `npm run bench:stream`: live fan-out over /ws on loopback.
 *
 * One publisher replays the recorded market-channel frames at a fixed rate of book updates through
 * the recorder's live path; N WebSocket clients (in this process) each hold a firehose
 * subscription. Runs: the embedded setup (publisher and stream server in one process, in-process
 * bus) with 100 and 1,000 subscribers, then NATS (a publisher process and two web instances on
 * the NATS server, subscribers split between them) with 1,000. Per run: book updates published/s,
 * messages delivered/s, publish-to-receive latency p50/p99 (each book's `timestamp` is its publish
 * time), books per subscriber delivered vs published (the rest coalesced: a subscriber gets the
 * latest book per symbol when it cannot take every one), server RSS, and the machine's load.
 *
 * Options (env): BENCH_RATE (5000), BENCH_SECONDS (10), BENCH_SUBSCRIBERS ("100,1000"),
 * BENCH_SKIP_NATS=1, BENCH_SKIP_INPROC=1, NATS_URL (nats://127.0.0.1:4222), BENCH_PG_URL (PostgreSQL for the two web
 * instances' keys: postgres://postgres@127.0.0.1:5432/postgres).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import WebSocket from "ws";
import { createBenchKey } from "./lib/keys";

const rate = Number(process.env.BENCH_RATE ?? 5000);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const warmupSeconds = 3;
const counts = (process.env.BENCH_SUBSCRIBERS ?? "100,1000").split(",").map(Number);
const natsUrl = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const pgUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

interface Node {
  child: ChildProcess;
  port: number | undefined;
  /** The last stats line of each type the node printed (publisher, web). */
  last: Record<string, Record<string, number>>;
  maxRss: number;
  stop: () => Promise<void>;
}

function startNode(role: string, env: Record<string, string>): Promise<Node> {
  const child = spawn(path.resolve("node_modules/.bin/tsx"), ["--conditions=react-server", "scripts/bench/lib/stream-node.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: "error",
      BACKGROUND_JOBS: "false",
      BENCH_ROLE: role,
      BENCH_RATE: String(rate),
      STREAM_CONNECTIONS_PER_KEY: "5000",
      STREAM_SUBSCRIPTIONS_ENTERPRISE: "5000",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  return new Promise((resolve, reject) => {
    const node: Node = {
      child,
      port: undefined,
      last: {},
      maxRss: 0,
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
        const line = JSON.parse(buffer.slice(0, index)) as Record<string, number | string>;
        buffer = buffer.slice(index + 1);
        if (line.type === "ready") {
          node.port = typeof line.port === "number" ? line.port : undefined;
          resolve(node);
        } else {
          node.last[String(line.type)] = line as Record<string, number>;
          node.maxRss = Math.max(node.maxRss, Number(line.rss ?? 0));
        }
      }
    });
    child.once("exit", (code) => reject(new Error(`bench ${role} exited (${String(code)}):\n${stderr}`)));
  });
}

interface Clients {
  received: number;
  histogram: Uint32Array;
  reset: () => void;
  close: () => void;
}

/** N firehose subscribers, opened in batches; each book's latency is now - its publish time (ms). */
async function openClients(ports: number[], key: string, n: number): Promise<Clients> {
  const state: Clients = {
    received: 0,
    histogram: new Uint32Array(60_001),
    reset: () => {
      state.received = 0;
      state.histogram.fill(0);
    },
    close: () => {
      for (const socket of sockets) socket.terminate();
    },
  };
  const sockets: WebSocket[] = [];
  for (let i = 0; i < n; i += 25) {
    await Promise.all(
      Array.from({ length: Math.min(25, n - i) }, (_, j) => {
        const port = ports[(i + j) % ports.length];
        return connectWithRetry(() => new Promise<void>((resolve, reject) => {
          const socket = new WebSocket(`ws://127.0.0.1:${String(port)}/ws?apiKey=${key}`, { perMessageDeflate: false, handshakeTimeout: 30_000 });
          socket.once("error", reject);
          socket.once("open", () => {
            sockets.push(socket);
            socket.send(JSON.stringify({ id: `fh-${i + j}`, action: "subscribe", exchange: "polymarket", method: "firehose", args: [] }));
            resolve();
          });
          socket.on("message", (raw) => {
            const text = String(raw);
            const at = text.lastIndexOf('"timestamp":');
            if (at < 0) return;
            const latency = Date.now() - Number.parseInt(text.slice(at + 12), 10);
            state.received += 1;
            const bucket = Math.max(0, Math.min(60_000, latency));
            state.histogram[bucket] = (state.histogram[bucket] ?? 0) + 1;
          });
        }));
      }),
    );
  }
  return state;
}

/** A loaded machine may refuse or time out a handshake: try a connection up to 5 times. */
async function connectWithRetry(open: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await open();
      return;
    } catch (error) {
      if (attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

function percentile(histogram: Uint32Array, total: number, p: number): number {
  const target = total * p;
  let seen = 0;
  for (let ms = 0; ms < histogram.length; ms += 1) {
    seen += histogram[ms] ?? 0;
    if (seen >= target) return ms;
  }
  return histogram.length - 1;
}

interface Row {
  setup: string;
  subscribers: number;
  publishedPerSecond: number;
  deliveredPerSecond: number;
  perSubscriber: number;
  p50: number;
  p99: number;
  rssMb: string;
  load: string;
}

async function measure(setup: string, publisher: Node, webs: Node[], key: string, n: number): Promise<Row> {
  const ports = webs.map((web) => web.port ?? 0);
  const clients = await openClients(ports, key, n);
  await new Promise((resolve) => setTimeout(resolve, warmupSeconds * 1000));
  clients.reset();
  const publishedBefore = Number(publisher.last.publisher?.published ?? 0);
  for (const web of webs) web.maxRss = 0;
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const elapsed = (performance.now() - started) / 1000;
  const received = clients.received;
  const p50 = percentile(clients.histogram, received, 0.5);
  const p99 = percentile(clients.histogram, received, 0.99);
  const published = (Number(publisher.last.publisher?.published ?? 0) - publishedBefore) / elapsed;
  clients.close();
  await new Promise((resolve) => setTimeout(resolve, 500));
  return {
    setup,
    subscribers: n,
    publishedPerSecond: Math.round(published),
    deliveredPerSecond: Math.round(received / elapsed),
    perSubscriber: Math.round(received / elapsed / n),
    p50,
    p99,
    rssMb: webs.map((web) => (web.maxRss / 1024 / 1024).toFixed(0)).join(" + "),
    load: loadavg()
      .map((value) => value.toFixed(2))
      .join(" "),
  };
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  // The embedded setup: PGlite in a temp DATA_DIR, the key made before the server opens it.
  const dataDir = mkdtempSync(path.join(tmpdir(), "brier-bench-stream-"));
  try {
    const key = await createBenchKey({ databaseUrl: undefined, dataDir });
    for (const n of process.env.BENCH_SKIP_INPROC === "1" ? [] : counts) {
      const node = await startNode("inproc", { DATA_DIR: dataDir });
      try {
        rows.push(await measure("in-process (1 server)", node, [node], key, n));
        process.stderr.write(`${JSON.stringify(rows[rows.length - 1])}\n`);
      } finally {
        await node.stop();
      }
      process.stderr.write(`done: in-process, ${n} subscribers\n`);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  if (process.env.BENCH_SKIP_NATS !== "1") {
    // Two web instances share PostgreSQL (keys) and NATS (books): a throwaway database.
    const database = `brier_bench_stream_${process.pid}`;
    const admin = postgres(pgUrl, { max: 1, onnotice: () => undefined });
    await admin.unsafe(`create database ${database}`);
    const url = new URL(pgUrl);
    url.pathname = `/${database}`;
    const prefix = `brier-bench-${randomBytes(3).toString("hex")}.live`;
    const nodes: Node[] = [];
    try {
      const key = await createBenchKey({ databaseUrl: url.toString(), dataDir: tmpdir() });
      const env = { DATABASE_URL: url.toString(), NATS_URL: natsUrl, NATS_SUBJECT_PREFIX: prefix };
      const webs = [await startNode("web", env), await startNode("web", env)];
      nodes.push(...webs);
      const publisher = await startNode("publisher", env);
      nodes.push(publisher);
      const n = counts[counts.length - 1] ?? 1000;
      rows.push(await measure("NATS (publisher + 2 web)", publisher, webs, key, n));
      process.stderr.write(`${JSON.stringify(rows[rows.length - 1])}\n`);
      process.stderr.write(`done: NATS, ${n} subscribers\n`);
    } finally {
      await Promise.all(nodes.map((node) => node.stop()));
      await admin.unsafe(`drop database if exists ${database} with (force)`);
      await admin.end();
    }
  }

  console.log(`\nbench:stream — firehose subscribers over loopback, target ${rate} book updates/s, ${seconds} s measured after ${warmupSeconds} s warm-up`);
  console.log("| setup | subscribers | book updates published/s | messages delivered/s | per subscriber/s | p50 ms | p99 ms | server RSS MB | load (1/5/15 min) |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---|");
  for (const r of rows) {
    console.log(`| ${r.setup} | ${r.subscribers} | ${r.publishedPerSecond} | ${r.deliveredPerSecond} | ${r.perSubscriber} | ${r.p50} | ${r.p99} | ${r.rssMb} | ${r.load} |`);
  }
  console.log(
    "\nper subscriber/s below published/s is coalescing: a subscriber receives the latest book of each symbol at each flush; an older book of the same symbol is replaced, never delivered after a newer one.",
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${String((error as Error).stack ?? error)}\n`);
    process.exit(1);
  },
);
