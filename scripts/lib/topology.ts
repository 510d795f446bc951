/**
 * A scale-out deployment on one machine, for `npm run cluster` (try it) and `npm run soak` (break
 * it): N web instances (`node server.mjs`, the production server, from a `next build`), one
 * recorder (`npm run recorder`'s script), this machine's PostgreSQL (a database of its own) and
 * NATS (a subject prefix of its own). Nothing reaches a venue: the catalog is ingested from the
 * loopback fake venues (test/fakes/venue-server.ts, the venues' real wire formats), and the
 * recorder reads a loopback Polymarket market channel (test/fakes/market-channel.ts) that this
 * process feeds at a set rate of frames, each stamped with a unique venue time.
 *
 * Each part is a child process that can be stopped, killed with SIGKILL, and started again with
 * the same environment (the recorder keeps its data dir, as a restarted host would).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { fixtureFrames, startFakeMarketChannel, type FakeMarketChannel } from "../../test/fakes/market-channel";
import { createFakeVenues, type FakeVenues } from "../../test/fakes/venue-server";
import { startCommand } from "./start-command";

export interface TopologyOptions {
  webs: number;
  /** First web port; instance i listens on basePort + i. */
  basePort: number;
  /** PostgreSQL server (admin URL); the topology uses its own database on it. */
  pgUrl: string;
  database: string;
  natsUrl: string;
  /** Where the parts keep their data dirs (chDB) and logs. */
  workDir: string;
  /** Market-channel frames fed per second. */
  frameRate: number;
  /** Extra environment for every part. */
  env?: Record<string, string>;
}

export interface Part {
  readonly name: string;
  readonly port: number | undefined;
  readonly pid: number | undefined;
  readonly running: boolean;
  start(): Promise<void>;
  /** SIGKILL: no shutdown hook runs, nothing is flushed or given back. */
  kill9(): void;
  stop(): Promise<void>;
}

export interface SentFrame {
  /** The frame's unique venue time (ms), which every row and book it produces carries. */
  timestamp: number;
  text: string;
  /** A recorder was connected when it was sent. */
  delivered: boolean;
  /** One of the channel's replayed fixture frames (sent to a recorder that just connected). */
  replay: boolean;
}

export interface Topology {
  databaseUrl: string;
  prefix: string;
  webs: Part[];
  recorder: Part;
  market: FakeMarketChannel;
  venues: FakeVenues;
  /** Calls `onFrame` for every frame the feeder sends. */
  startFeed(onFrame: (frame: SentFrame) => void): () => void;
  close(): Promise<void>;
}

/** The production server's build output must exist: `node server.mjs` serves it. */
export function assertBuilt(): string {
  const dist = process.env.NEXT_DIST_DIR ?? ".next";
  if (!existsSync(path.join(dist, "BUILD_ID"))) {
    throw new Error(`No build in ${dist}: run \`npm run build\` first (or set NEXT_DIST_DIR to a build's folder).`);
  }
  return dist;
}

async function waitForHttp(url: string, timeoutMs: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with ${String(child.exitCode)} before it answered`);
    const ok = await fetch(url, { signal: AbortSignal.timeout(5_000) })
      .then((response) => response.status < 500)
      .catch(() => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

function childPart(name: string, command: string[], env: Record<string, string>, logFile: string, ready: (child: ChildProcess) => Promise<void>, port?: number): Part {
  let child: ChildProcess | undefined;
  return {
    name,
    port,
    get pid() {
      return child?.pid;
    },
    get running() {
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    },
    async start() {
      const { openSync } = await import("node:fs");
      const log = openSync(logFile, "a");
      const [bin = "node", ...args] = command;
      child = spawn(bin, args, { env: { ...process.env, ...env }, stdio: ["ignore", log, log] });
      await ready(child);
    },
    kill9() {
      child?.kill("SIGKILL");
    },
    async stop() {
      const running = child;
      if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        running.once("exit", () => resolve());
        running.kill("SIGTERM");
        setTimeout(() => running.kill("SIGKILL"), 15_000).unref();
      });
    },
  };
}

/** A fresh API key on `plan`, in the topology's database. */
export async function createKey(databaseUrl: string, plan: "free" | "pro" | "enterprise", email: string): Promise<string> {
  const { openDatabase } = await import("@/lib/db");
  const { ensureAccount, setPlan } = await import("@/lib/auth/accounts");
  const { createApiKey } = await import("@/lib/auth/api-keys");
  const handle = await openDatabase({ url: databaseUrl, dataDir: path.resolve(".data/unused-pglite") });
  try {
    const { account } = await ensureAccount(handle.db, email);
    await setPlan(handle.db, email, plan);
    return (await createApiKey(handle.db, account.id, `${plan} key ${new Date().toISOString()}`)).key;
  } finally {
    await handle.close();
  }
}

/** Creates the database if needed and applies the migrations (once, before any part starts). */
async function prepareDatabase(pgUrl: string, database: string): Promise<string> {
  const admin = postgres(pgUrl, { max: 1, onnotice: () => undefined });
  try {
    const exists = await admin`select 1 from pg_database where datname = ${database}`;
    if (exists.length === 0) await admin.unsafe(`create database "${database}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(pgUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function startTopology(options: TopologyOptions): Promise<Topology> {
  assertBuilt();
  mkdirSync(options.workDir, { recursive: true });
  const databaseUrl = await prepareDatabase(options.pgUrl, options.database);
  const venues = createFakeVenues();
  await venues.listen();
  const market = await startFakeMarketChannel();
  const prefix = `brier-cluster-${randomBytes(3).toString("hex")}.live`;
  const common: Record<string, string> = {
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    DATABASE_URL: databaseUrl,
    NATS_URL: options.natsUrl,
    NATS_SUBJECT_PREFIX: prefix,
    VENUE_REDIRECT_URL: venues.url,
    NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? randomBytes(24).toString("hex"),
    ...options.env,
  };
  // Migrations and the catalog (the fake venues' Polymarket markets: the recorder records their outcome tokens).
  await runOnce(["node_modules/.bin/tsx", "--conditions=react-server", "scripts/admin.ts", "ingest", "--venue", "polymarket"], { ...common, DATA_DIR: path.join(options.workDir, "admin") }, path.join(options.workDir, "admin.log"));

  const recorderDir = path.join(options.workDir, "recorder");
  const recorder = childPart(
    "recorder",
    // tsx as a loader in the one process (not the tsx CLI, whose child would survive a SIGKILL of its parent).
    [process.execPath, "--import", "tsx", "--conditions=react-server", "scripts/recorder.ts"],
    { ...common, LOG_LEVEL: "info", DATA_DIR: recorderDir, POLYMARKET_WS_URL: market.url, RECORDER_ENABLED: "true" },
    path.join(options.workDir, "recorder.log"),
    async (child) => {
      const deadline = Date.now() + 60_000;
      // Ready once it holds the market channel open.
      while (market.openSockets() === 0) {
        if (child.exitCode !== null) throw new Error(`recorder exited with ${String(child.exitCode)}; see ${recorderDir}/../recorder.log`);
        if (Date.now() > deadline) throw new Error("the recorder did not connect to the market channel within 60 s");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  );
  const launcher = startCommand();
  const webs = Array.from({ length: options.webs }, (_, i) => {
    const port = options.basePort + i;
    return childPart(
      `web${i + 1}`,
      ["node", ...launcher.nodeArgs, "server.mjs"],
      { ...launcher.env, ...common, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: path.join(options.workDir, `web${i + 1}`), BACKGROUND_JOBS: "false", RECORDER_ENABLED: "false" },
      path.join(options.workDir, `web${i + 1}.log`),
      (child) => waitForHttp(`http://127.0.0.1:${port}/v0/health`, 120_000, child),
      port,
    );
  });
  await recorder.start();
  await Promise.all(webs.map((web) => web.start()));

  return {
    databaseUrl,
    prefix,
    webs,
    recorder,
    market,
    venues,
    startFeed(onFrame) {
      let next = 0;
      let last = 0;
      // The recorder connected before the feed started: its replay is handed over first too.
      let seen = 0;
      let replaying: Promise<void> | undefined;
      // The fixture's price changes, over and over, each restamped with a unique venue time. Paused
      // while no recorder is connected, and while a new connection gets the channel's replay (the
      // fixture frames, book snapshots first), which is handed to `onFrame` first.
      const changes = fixtureFrames.filter((frame) => frame.includes('"price_change"'));
      const timer = setInterval(() => {
        if (replaying !== undefined || market.openSockets() === 0) return;
        const connections = market.connections();
        if (connections !== seen) {
          seen = connections;
          replaying = market.replays(connections).then(() => {
            for (const text of fixtureFrames) onFrame({ timestamp: 0, text, delivered: true, replay: true });
            replaying = undefined;
          });
          return;
        }
        const timestamp = Math.max(Date.now(), last + 1);
        last = timestamp;
        const template = changes[next % changes.length] ?? "";
        next += 1;
        const text = template.replace(/"timestamp":"\d+"/g, `"timestamp":"${timestamp}"`);
        market.broadcast(text);
        onFrame({ timestamp, text, delivered: true, replay: false });
      }, 1000 / options.frameRate);
      return () => clearInterval(timer);
    },
    async close() {
      await Promise.all([...webs, recorder].map((part) => part.stop()));
      await market.close();
      await venues.close();
    },
  };
}

function runOnce(command: string[], env: Record<string, string>, logFile: string): Promise<void> {
  return new Promise((resolve, reject) => {
    void import("node:fs").then(({ openSync }) => {
      const log = openSync(logFile, "a");
      const [bin = "node", ...args] = command;
      const child = spawn(bin, args, { env: { ...process.env, ...env }, stdio: ["ignore", log, log] });
      child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command.join(" ")} exited with ${String(code)}; see ${logFile}`))));
    });
  });
}
