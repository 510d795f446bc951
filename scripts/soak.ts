/**
 * `npm run soak -- --minutes M [--rate F] [--port P] [--seed S]`: two web instances and a recorder
 * on PostgreSQL and NATS (scripts/lib/topology.ts), the recorder fed by the loopback market channel
 * at F frames a second, driven by REST, SQL and stream clients across both instances, while a
 * chaos loop kills a random part with SIGKILL at random moments and starts it again. PostgreSQL and
 * NATS are this machine's shared services and are not killed.
 *
 * Prints: requests by status, errors by class, stream messages lost per subscriber (sequence gaps,
 * and source updates missing, outside the kill windows), the time each subscriber took to get a
 * book again after each kill, books compared with an independent replay of the frames sent, rows
 * recorded vs sent (lost within the writer's documented 500 ms flush window of a recorder kill, lost
 * beyond it, duplicated), and the most a key ever held of each limit across instances vs its plan.
 *
 * Needs `npm run build` first. BRIER_PG_URL, NATS_URL as for `npm run cluster`. Work dir: .soak/.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import WebSocket from "ws";
import { BookStore } from "@/lib/books/book-state";
import { normalizeFrame } from "@/lib/recorder/polymarket/normalize";
import { percentile as benchPercentile } from "./bench/lib/harness";
import { say } from "./lib/cli";
import { createKey, startTopology, type Part, type SentFrame, type Topology } from "./lib/topology";

const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "10" },
    rate: { type: "string", default: "20" },
    port: { type: "string", default: "3200" },
    seed: { type: "string", default: String(Date.now() % 100_000) },
  },
});
const minutes = Number(values.minutes);
const frameRate = Number(values.rate);
const runDir = path.resolve(".soak", new Date().toISOString().replace(/[:.]/g, "-"));

/** A small seeded generator, so a run's kill schedule can be repeated. */
let seed = Number(values.seed) || 1;
function random(): number {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
}
const between = (low: number, high: number) => low + random() * (high - low);

// ---------------------------------------------------------------- what happened, for the report

const statuses = new Map<string, number>();
const errors = new Map<string, number>();
const count = (map: Map<string, number>, key: string, n = 1) => map.set(key, (map.get(key) ?? 0) + n);

interface Kill {
  part: string;
  at: number;
  /** Restarted and ready. */
  readyAt: number | undefined;
}
const kills: Kill[] = [];
const KILL_WINDOW_AFTER_MS = 5_000;
function inKillWindow(t: number): boolean {
  return kills.some((kill) => t >= kill.at && t <= (kill.readyAt ?? Number.POSITIVE_INFINITY) + KILL_WINDOW_AFTER_MS);
}

// ------------------------------------------------------------- the independent replay of the feed

const replay = new BookStore();
/** Per asset: the replay's book after each venue time (its last 2,000 updates). */
const replayBooks = new Map<string, Map<number, string>>();
/** Per asset: venue times of the frames that touched it (not the channel's fixture replays). */
const touched = new Map<string, number[]>();
const sent: SentFrame[] = [];

function canonical(bids: Array<{ price: number; size: number }>, asks: Array<{ price: number; size: number }>): string {
  const side = (levels: Array<{ price: number; size: number }>) => levels.map((level) => `${level.price}@${level.size}`).join(",");
  return `${side(bids)}|${side(asks)}`;
}

function onFrame(frame: SentFrame): void {
  if (!frame.replay) sent.push(frame);
  for (const row of normalizeFrame(frame.text, Date.now()).rows) {
    if (row.eventType === "last_trade_price") continue;
    const book = replay.apply(row);
    if (book === undefined || !book.hasSnapshot) continue;
    const view = book.view();
    let history = replayBooks.get(book.assetId);
    if (history === undefined) {
      history = new Map();
      replayBooks.set(book.assetId, history);
    }
    history.set(view.timestamp, canonical(view.bids, view.asks));
    if (history.size > 2_000) history.delete(history.keys().next().value ?? 0);
    if (!frame.replay) {
      const times = touched.get(book.assetId) ?? [];
      if (times.at(-1) !== frame.timestamp) times.push(frame.timestamp);
      touched.set(book.assetId, times);
    }
  }
}

// --------------------------------------------------------------------------- stream subscribers

interface Subscriber {
  index: number;
  asset: string;
  socket: WebSocket | undefined;
  instance: number;
  lastSeq: number;
  seqGaps: number;
  seqGapsOutside: number;
  received: number;
  /** Venue times received, for the source comparison. */
  times: Set<number>;
  /** Periods connected and subscribed: [from, to]. */
  periods: Array<[number, number | undefined]>;
  equal: number;
  different: number;
  unknown: number;
  lastBook: string | undefined;
  lastBookAt: number;
}

const subscribers: Subscriber[] = [];
/** Per kill: each subscriber's time to its first book after the kill (ms). */
const recoveries = new Map<Kill, number[]>();
let running = true;

function connectSubscriber(topology: Topology, key: string, subscriber: Subscriber): void {
  if (!running) return;
  const alive = topology.webs.map((web, i) => (web.running ? i : -1)).filter((i) => i >= 0);
  const instance = alive.length === 0 ? subscriber.index % topology.webs.length : (alive[Math.floor(random() * alive.length)] ?? 0);
  const web = topology.webs[instance];
  const socket = new WebSocket(`ws://127.0.0.1:${String(web?.port)}/ws?apiKey=${key}`, { perMessageDeflate: false, handshakeTimeout: 5_000 });
  subscriber.socket = socket;
  subscriber.instance = instance;
  subscriber.lastSeq = 0;
  const retry = () => {
    if (subscriber.socket !== socket) return;
    subscriber.socket = undefined;
    const open = subscriber.periods.at(-1);
    if (open !== undefined && open[1] === undefined) open[1] = Date.now();
    setTimeout(() => connectSubscriber(topology, key, subscriber), 250);
  };
  socket.on("open", () => {
    socket.send(JSON.stringify({ id: `s${subscriber.index}`, action: "subscribe", exchange: "polymarket", method: "watchOrderBook", args: [subscriber.asset] }));
  });
  socket.on("message", (raw: Buffer) => {
    const message = JSON.parse(raw.toString()) as { event: string; seq?: number; data?: { bids: Array<{ price: number; size: number }>; asks: Array<{ price: number; size: number }>; timestamp: number } };
    const now = Date.now();
    if (message.event === "subscribed") {
      subscriber.periods.push([now, undefined]);
      return;
    }
    if (message.event !== "data" || message.data === undefined || message.seq === undefined) return;
    subscriber.received += 1;
    if (subscriber.lastSeq > 0 && message.seq > subscriber.lastSeq + 1) {
      subscriber.seqGaps += message.seq - subscriber.lastSeq - 1;
      if (!inKillWindow(now)) subscriber.seqGapsOutside += message.seq - subscriber.lastSeq - 1;
    }
    subscriber.lastSeq = message.seq;
    const { timestamp } = message.data;
    subscriber.times.add(timestamp);
    const book = canonical(message.data.bids, message.data.asks);
    const expected = replayBooks.get(subscriber.asset)?.get(timestamp);
    if (expected === undefined) subscriber.unknown += 1;
    else if (expected === book) subscriber.equal += 1;
    else subscriber.different += 1;
    subscriber.lastBook = book;
    subscriber.lastBookAt = now;
    for (const [kill, times] of recoveries) {
      if (times[subscriber.index] === undefined && now > kill.at && timestamp > kill.at) times[subscriber.index] = now - kill.at;
    }
  });
  socket.on("close", retry);
  socket.on("error", retry);
}

// ------------------------------------------------------------------------ REST, SQL, limit probes

function classify(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause;
  if (cause?.code !== undefined) return cause.code;
  if ((error as { name?: string }).name === "TimeoutError") return "timeout";
  return (error as { name?: string }).name ?? "unknown";
}

async function request(surface: string, url: string, init: RequestInit): Promise<void> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
    count(statuses, `${surface} ${response.status}`);
  } catch (error) {
    count(errors, `${surface}: ${classify(error)}`);
  }
}

function every(ms: number, work: () => Promise<void>): () => void {
  let stopped = false;
  const loop = async () => {
    while (!stopped) {
      await work().catch((error: unknown) => count(errors, `driver: ${classify(error)}`));
      await new Promise((resolve) => setTimeout(resolve, ms));
    }
  };
  void loop();
  return () => {
    stopped = true;
  };
}

const base = (topology: Topology) => {
  const web = topology.webs[Math.floor(random() * topology.webs.length)];
  return `http://127.0.0.1:${String(web?.port)}`;
};

/** A free key tries to hold 12 connections and 8 subscriptions, spread over both instances. */
async function probeStreamLimits(topology: Topology, key: string): Promise<{ connections: number; subscriptions: number }> {
  const sockets: WebSocket[] = [];
  let subscribed = 0;
  await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      new Promise<void>((resolve) => {
        const web = topology.webs[i % topology.webs.length];
        const socket = new WebSocket(`ws://127.0.0.1:${String(web?.port)}/ws?apiKey=${key}`, { handshakeTimeout: 5_000 });
        socket.once("open", () => {
          sockets.push(socket);
          resolve();
        });
        socket.once("error", () => resolve());
        socket.once("unexpected-response", () => resolve());
      }),
    ),
  );
  const assets = [...replayBooks.keys()];
  await Promise.all(
    sockets.slice(0, 8).map(
      (socket, i) =>
        new Promise<void>((resolve) => {
          const id = `p${i}`;
          socket.on("message", (raw: Buffer) => {
            const message = JSON.parse(raw.toString()) as { event: string; id?: string };
            if (message.id !== id) return;
            if (message.event === "subscribed") subscribed += 1;
            resolve();
          });
          socket.send(JSON.stringify({ id, action: "subscribe", exchange: "polymarket", method: "watchOrderBook", args: i < assets.length ? [assets[i]] : [assets[i % assets.length], 3 + i] }));
          setTimeout(resolve, 5_000);
        }),
    ),
  );
  const connections = sockets.length;
  for (const socket of sockets) socket.terminate();
  return { connections, subscriptions: subscribed };
}

// ------------------------------------------------------------------------------------------ main

async function main(): Promise<void> {
  if (!(minutes > 0)) throw new Error("--minutes must be positive");
  const pgUrl = process.env.BRIER_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const database = `brier_soak_${randomBytes(3).toString("hex")}`;
  say(`soak: ${minutes} min, ${frameRate} frames/s, seed ${values.seed}, database ${database}, logs in ${runDir}`);
  const topology = await startTopology({ webs: 2, basePort: Number(values.port), pgUrl, database, natsUrl: process.env.NATS_URL ?? "nats://127.0.0.1:4222", workDir: runDir, frameRate });
  const started = Date.now();
  const stopFeed = topology.startFeed(onFrame);
  const pro = await createKey(topology.databaseUrl, "enterprise", `soak-enterprise-${database}@example.test`);
  const free = await createKey(topology.databaseUrl, "free", `soak-free-${database}@example.test`);
  const leases = postgres(topology.databaseUrl, { max: 1, onnotice: () => undefined });
  const maxHeld = new Map<string, number>();
  const stops: Array<() => void> = [];
  const probes: Array<{ connections: number; subscriptions: number }> = [];
  try {
    // Wait for the first books, then the subscribers.
    while (replayBooks.size < 4 && Date.now() - started < 30_000) await new Promise((resolve) => setTimeout(resolve, 100));
    const assets = [...replayBooks.keys()].sort();
    for (let i = 0; i < 8; i += 1) {
      const subscriber: Subscriber = {
        index: i,
        asset: assets[i % assets.length] ?? "",
        socket: undefined,
        instance: 0,
        lastSeq: 0,
        seqGaps: 0,
        seqGapsOutside: 0,
        received: 0,
        times: new Set(),
        periods: [],
        equal: 0,
        different: 0,
        unknown: 0,
        lastBook: undefined,
        lastBookAt: 0,
      };
      subscribers.push(subscriber);
      connectSubscriber(topology, pro, subscriber);
    }
    const auth = (key: string) => ({ authorization: `Bearer ${key}` });
    stops.push(every(100, () => request("GET /v0/markets", `${base(topology)}/v0/markets?limit=5`, { headers: auth(pro) })));
    stops.push(every(500, () => request("POST /api/polymarket/fetchMarkets", `${base(topology)}/api/polymarket/fetchMarkets`, { method: "POST", headers: { ...auth(pro), "content-type": "application/json" }, body: JSON.stringify({ args: [{ limit: 2 }] }) })));
    const sql = JSON.stringify({ query: "SELECT count() FROM polymarket_orderbook_rust WHERE market = '0x0'" });
    // Four queries at once over both instances: the key's cap is 2 across them.
    stops.push(every(1_000, () => Promise.all(Array.from({ length: 4 }, () => request("POST /v0/sql", `${base(topology)}/v0/sql`, { method: "POST", headers: { ...auth(pro), "content-type": "application/json" }, body: sql }))).then(() => undefined)));
    stops.push(every(5_000, async () => void probes.push(await probeStreamLimits(topology, free))));
    stops.push(
      every(200, async () => {
        const rows = await leases<Array<{ bucket: string; held: number }>>`select bucket, sum(weight)::int as held from limit_leases where expires_at > clock_timestamp() group by bucket`;
        for (const row of rows) {
          const kind = row.bucket.slice(0, row.bucket.indexOf(":"));
          const plan = row.bucket.includes(await keyIdOf(leases, free)) ? "free" : "enterprise";
          const name = `${kind} (${plan})`;
          maxHeld.set(name, Math.max(maxHeld.get(name) ?? 0, row.held));
        }
      }),
    );

    // Chaos: kill -9 a random part at random moments, start it again after a random pause.
    const end = started + minutes * 60_000;
    const parts: Part[] = [...topology.webs, topology.recorder];
    while (Date.now() < end - 30_000) {
      await new Promise((resolve) => setTimeout(resolve, between(10_000, 35_000)));
      if (Date.now() >= end - 30_000) break;
      const part = parts[Math.floor(random() * parts.length)];
      if (part === undefined) continue;
      const kill: Kill = { part: part.name, at: Date.now(), readyAt: undefined };
      kills.push(kill);
      recoveries.set(kill, []);
      part.kill9();
      say(`${new Date().toISOString()} kill -9 ${part.name} (pid ${String(part.pid)})`);
      await new Promise((resolve) => setTimeout(resolve, between(1_000, 5_000)));
      await part.start().catch((error: unknown) => count(errors, `restart ${part.name}: ${String(error)}`));
      kill.readyAt = Date.now();
      say(`${new Date().toISOString()} ${part.name} back after ${kill.readyAt - kill.at} ms`);
    }
    while (Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 500));
  } finally {
    for (const stop of stops) stop();
    stopFeed();
  }
  // Quiet: the last books reach everyone, then compare with the replay's final books.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  running = false;
  const finalEqual = subscribers.filter((s) => {
    const view = replay.get(s.asset)?.view();
    return view !== undefined && s.lastBook === canonical(view.bids, view.asks);
  }).length;
  for (const s of subscribers) s.socket?.terminate();
  await leases.end();
  await topology.close();
  const rows = await recordedRows(path.join(runDir, "recorder"), started);
  report(started, finalEqual, rows, maxHeld, probes);
  await dropDatabase(pgUrl, database);
}

const keyIds = new Map<string, string>();
async function keyIdOf(sql: postgres.Sql, key: string): Promise<string> {
  const known = keyIds.get(key);
  if (known !== undefined) return known;
  const { hashKey } = await import("@/lib/auth/api-keys");
  const [row] = await sql<Array<{ id: string }>>`select id from api_keys where hash = ${hashKey(key)}`;
  keyIds.set(key, row?.id ?? "?");
  return row?.id ?? "?";
}

/** Rows per venue time in the recorder's store (its chDB data dir, opened once the recorder has stopped). */
async function recordedRows(dataDir: string, since: number): Promise<Map<number, number>> {
  const { openTickStores } = await import("@/lib/ticks");
  const stores = await openTickStores({ dataDir: path.join(dataDir, "ch") });
  try {
    const result = await stores.writer.query({
      query: "SELECT toUnixTimestamp64Milli(timestamp) AS ts, count() AS n FROM polymarket_orderbook_rust WHERE timestamp >= fromUnixTimestamp64Milli({since:Int64}) GROUP BY ts",
      query_params: { since },
      format: "JSONEachRow",
    });
    const out = new Map<number, number>();
    for (const row of await result.json<{ ts: string; n: string }>()) out.set(Number(row.ts), Number(row.n));
    return out;
  } finally {
    await stores.close();
  }
}

function percentile(values: number[], p: number): number {
  return values.length === 0 ? 0 : benchPercentile([...values].sort((a, b) => a - b), p);
}

function report(started: number, finalEqual: number, recorded: Map<number, number>, maxHeld: Map<string, number>, probes: Array<{ connections: number; subscriptions: number }>): void {
  const lines: string[] = [];
  const elapsed = (Date.now() - started) / 60_000;
  lines.push(`\nsoak: ${elapsed.toFixed(1)} min, 2 web instances + recorder on PostgreSQL and NATS, ${frameRate} frames/s, seed ${values.seed}`);
  lines.push(`\nkills (kill -9, restarted): ${kills.map((k) => `${k.part} @${((k.at - started) / 1000).toFixed(0)}s (${((k.readyAt ?? k.at) - k.at) / 1000}s down)`).join(", ") || "none"}`);

  lines.push("\n| requests | status | count |\n|---|---|---:|");
  for (const [key, n] of [...statuses].sort()) {
    const [surface, status] = [key.slice(0, key.lastIndexOf(" ")), key.slice(key.lastIndexOf(" ") + 1)];
    lines.push(`| ${surface} | ${status} | ${n} |`);
  }
  lines.push("\n| errors (no HTTP answer) | count |\n|---|---:|");
  for (const [key, n] of [...errors].sort()) lines.push(`| ${key} | ${n} |`);
  if (errors.size === 0) lines.push("| none | 0 |");

  lines.push(
    "\n| subscriber | asset | data messages | seq gaps (all) | seq gaps outside kill windows | source updates not delivered outside kill windows | of those, lost (not shown by seq) | books = replay | books != replay | not in replay window |",
  );
  lines.push("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const s of subscribers) {
    let missing = 0;
    for (const t of touched.get(s.asset) ?? []) {
      const covered = s.periods.some(([from, to]) => t > from + 1_000 && t < (to ?? Number.POSITIVE_INFINITY) - 1_000);
      if (covered && !inKillWindow(t) && !s.times.has(t)) missing += 1;
    }
    lines.push(`| ${s.index} | …${s.asset.slice(-6)} | ${s.received} | ${s.seqGaps} | ${s.seqGapsOutside} | ${missing} | ${Math.max(0, missing - s.seqGapsOutside)} | ${s.equal} | ${s.different} | ${s.unknown} |`);
  }
  lines.push(`\nfinal books equal to the independent replay (after the last recovery, feed stopped): ${finalEqual} of ${subscribers.length}`);

  lines.push("\n| kill | subscribers with a book again | p50 ms | max ms |\n|---|---:|---:|---:|");
  for (const [kill, times] of recoveries) {
    const got = times.filter((t) => t !== undefined);
    lines.push(`| ${kill.part} @${((kill.at - started) / 1000).toFixed(0)}s | ${got.length} of ${subscribers.length} | ${percentile(got, 0.5)} | ${Math.max(0, ...got)} |`);
  }

  let expectedRows = 0;
  let recordedRowsTotal = 0;
  let lostInWindow = 0;
  let lostBeyond = 0;
  let sentToKilled = 0;
  let duplicated = 0;
  /** Rows lost beyond the window, by how long before the next recorder kill their frame was sent. */
  const beyond = new Map<string, number>();
  for (const frame of sent) {
    const expected = normalizeFrame(frame.text, 0).rows.length;
    const got = recorded.get(frame.timestamp) ?? 0;
    expectedRows += expected;
    recordedRowsTotal += Math.min(got, expected);
    if (got > expected) duplicated += got - expected;
    if (got < expected) {
      const recorderKill = kills.some((k) => k.part === "recorder" && frame.timestamp <= k.at && frame.timestamp >= k.at - 1_000);
      // The channel learns of a killed recorder when its socket closes: a frame sent in between reached no recorder.
      const toDead = kills.some((k) => k.part === "recorder" && frame.timestamp > k.at && frame.timestamp <= (k.readyAt ?? Number.POSITIVE_INFINITY));
      if (recorderKill) lostInWindow += expected - got;
      else if (toDead) sentToKilled += expected - got;
      else {
        lostBeyond += expected - got;
        const next = kills.find((k) => k.part === "recorder" && k.at >= frame.timestamp);
        const before = next === undefined ? "no recorder kill after it" : next.at - frame.timestamp <= 3_000 ? "1-3 s before a recorder kill" : "more than 3 s before a recorder kill";
        beyond.set(before, (beyond.get(before) ?? 0) + expected - got);
      }
    }
  }
  lines.push("\n| rows | count |\n|---|---:|");
  lines.push(`| frames sent to a connected recorder | ${sent.length} |`);
  lines.push(`| rows those frames make | ${expectedRows} |`);
  lines.push(`| rows recorded | ${recordedRowsTotal} |`);
  lines.push(`| lost within the flush window (<= 1 s before a recorder kill) | ${lostInWindow} |`);
  lines.push(`| not received: sent after a recorder kill, before the channel saw its socket close | ${sentToKilled} |`);
  lines.push(`| lost beyond the window | ${lostBeyond} |`);
  for (const [when, n] of beyond) lines.push(`| … of which sent ${when} | ${n} |`);
  lines.push(`| duplicated | ${duplicated} |`);

  lines.push("\n| limit (key's plan) | most held at once, all instances | plan allows |\n|---|---:|---:|");
  const plan: Record<string, number> = {
    "stream-subscriptions (free)": 5,
    "stream-connections (free)": 10,
    "stream-subscriptions (enterprise)": 1000,
    "stream-connections (enterprise)": 10,
    "sql (enterprise)": 2,
    "venue-calls (enterprise)": 8,
  };
  for (const [name, held] of [...maxHeld].sort()) lines.push(`| ${name} | ${held} | ${plan[name] ?? "?"} |`);
  const probed = probes.reduce((acc, p) => ({ connections: Math.max(acc.connections, p.connections), subscriptions: Math.max(acc.subscriptions, p.subscriptions) }), { connections: 0, subscriptions: 0 });
  lines.push(`\nfree-key probes (12 connections and 8 subscriptions tried over both instances, ${probes.length} times): at most ${probed.connections} connections and ${probed.subscriptions} subscriptions accepted`);
  console.log(lines.join("\n"));
}

async function dropDatabase(pgUrl: string, database: string): Promise<void> {
  const admin = postgres(pgUrl, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`drop database if exists "${database}" with (force)`).catch(() => undefined);
  await admin.end();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    say(`soak failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
