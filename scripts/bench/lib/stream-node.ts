/**
 * One server process of `npm run bench:stream` (spawned by scripts/bench/stream.ts, never run by hand):
 *   BENCH_ROLE=inproc     a stream server (/ws on node:http, the handler server.mjs mounts) with the
 *                         publisher in the same process on the in-process bus (the embedded setup)
 *   BENCH_ROLE=web        a stream server on the NATS bus (a web instance)
 *   BENCH_ROLE=publisher  the publisher alone on the NATS bus (the recorder's side)
 *   BENCH_ROLE=baseline   the stack's physical limit: the same publisher, and a bare `ws` server that
 *                         every tick writes one pre-built buffer (the tick's latest books as WebSocket
 *                         frames) to every subscriber of the same books: no per-subscriber work at all
 * The publisher replays the recorded market-channel frames (test/fixtures) at BENCH_RATE book
 * updates per second through the recorder's own live path (normalizeFrame -> BookStore ->
 * LivePublisher), each frame stamped with the time it is replayed (so `timestamp` in every book
 * delivered is its publish time). Reports JSON lines on stdout: ready, then stats every second
 * (with the process's CPU time, so the bench can give CPU use over its window).
 */
import { appendFileSync } from "node:fs";
import { createServer } from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { BookStore, type AssetBook } from "@/lib/books/book-state";
import { getDb } from "@/lib/db";
import { normalizeFrame } from "@/lib/recorder/polymarket/normalize";
import { InProcessBus, type BookMessage, type LiveBus } from "@/lib/live/bus";
import { EncodedBook } from "@/lib/streams/encode";
import { StreamHub } from "@/lib/streams/hub";
import { connectNatsBus } from "@/lib/live/nats-bus";
import { dataMessage } from "@/lib/streams/protocol";
import { LivePublisher } from "@/lib/live/publisher";
import { textFrames } from "@/lib/streams/ws-frames";
import { createStreamServer } from "@/lib/streams/ws-server";
import { benchFrames } from "./stream-assets";

const role = process.env.BENCH_ROLE ?? "inproc";
const rate = Number(process.env.BENCH_RATE ?? 5000);
const tickMs = Number(process.env.STREAM_TICK_MS ?? 20);

function emit(line: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

function stats(type: string, extra: Record<string, number>): void {
  const cpu = process.cpuUsage();
  emit({ type, ...extra, cpuMicros: cpu.user + cpu.system, rss: process.memoryUsage().rss });
}

function startPublisher(bus: LiveBus): void {
  const publisher = new LivePublisher(bus);
  const store = new BookStore();
  // Answers web instances' "current book" requests, as the recorder does.
  publisher.attach({ isRecording: (assetId) => store.get(assetId) !== undefined, book: (assetId) => store.get(assetId) });
  const replay = benchFrames();
  let next = 0;
  let published = 0;
  const started = performance.now();
  const publishFrame = () => {
    const text = replay[next % replay.length] ?? "";
    next += 1;
    const now = Date.now();
    const frame = normalizeFrame(text.replace(/"timestamp":"\d+"/g, `"timestamp":"${now}"`), now);
    const touched = new Set<AssetBook>();
    for (const row of frame.rows) {
      if (row.eventType === "last_trade_price") continue;
      const book = store.apply(row);
      if (book !== undefined) touched.add(book);
    }
    for (const book of touched) {
      publisher.publishBook(book);
      published += 1;
    }
  };
  // A fixed rate while the process keeps up; when it cannot, at most 20 ms of updates per tick and
  // the backlog dropped (the `published` figure then shows the rate actually achieved).
  let scheduled = 0;
  let last = started;
  const timer = setInterval(() => {
    const now = performance.now();
    scheduled += Math.min(((now - last) / 1000) * rate, rate * 0.02 + 1);
    last = now;
    while (published < scheduled) publishFrame();
  }, 5);
  timer.unref();
  setInterval(() => stats("publisher", { published }), 1000);
}

/** The bare server: per tick, one buffer per distinct subscription (all books, or one market's), written to each of its sockets. */
async function startBaseline(bus: LiveBus): Promise<number> {
  const groups = new Map<string, { assets: Set<string> | undefined; sockets: Set<Duplex> }>();
  const latest = new Map<string, BookMessage>();
  bus.subscribeBooks(undefined, undefined, (message) => latest.set(message.assetId, message));
  let written = 0;
  setInterval(() => {
    if (latest.size === 0) return;
    const books = [...latest.values()].map((message) => new EncodedBook(message));
    latest.clear();
    for (const group of groups.values()) {
      const frames: Buffer[] = [];
      for (const book of books) {
        if (group.assets !== undefined && !group.assets.has(book.message.assetId)) continue;
        const message = dataMessage('"b"', '"firehose"', book.symbolJson, 0, group.assets === undefined ? book.firehoseBody() : book.body());
        frames.push(textFrames([message]));
      }
      if (frames.length === 0) continue;
      const buffer = Buffer.concat(frames);
      for (const socket of group.sockets) {
        // A socket that cannot take more skips the tick (it gets the next one's latest books).
        if (socket.writableLength > 1024 * 1024) continue;
        socket.write(buffer);
        written += frames.length;
      }
    }
  }, tickMs).unref();
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const server = createServer((_req, res) => res.writeHead(404).end());
  server.on("upgrade", (request, socket, head) => {
    wss.handleUpgrade(request, socket, head, (ws) => {
      ws.on("message", (raw) => {
        const message = JSON.parse(String(raw)) as { method?: string; args?: unknown[] };
        const ids = message.method === "firehose" ? undefined : (message.args?.[0] as string[]);
        const name = ids === undefined ? "*" : ids.join(",");
        let group = groups.get(name);
        if (group === undefined) {
          group = { assets: ids === undefined ? undefined : new Set(ids), sockets: new Set() };
          groups.set(name, group);
        }
        group.sockets.add(socket);
        ws.on("close", () => group?.sockets.delete(socket));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  setInterval(() => stats("web", { queued: written, sessions: wss.clients.size }), 1000);
  return (server.address() as AddressInfo).port;
}

/** BENCH_PROFILE_DIR: a V8 CPU profile of this process, written there when it is stopped (SIGTERM). */
async function startProfiling(dir: string): Promise<void> {
  const { Session } = await import("node:inspector/promises");
  const { writeFileSync } = await import("node:fs");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 1000 });
  await session.post("Profiler.start");
  process.once("SIGTERM", () => {
    void session.post("Profiler.stop").then(({ profile }) => {
      writeFileSync(`${dir}/${role}-${process.pid}.cpuprofile`, JSON.stringify(profile));
      process.exit(0);
    });
  });
}

const diagSockets = new Set<Duplex>();

/**
 * BENCH_DIAG_FILE: once a second, a line of where a web instance's time goes: books in from the bus
 * and how old they are on arrival (publish to the bus callback), event-loop delay, bytes unsent in
 * this process's sockets.
 */
function watchDiagnostics(bus: LiveBus, file: string): void {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let booksIn = 0;
  let lagSum = 0;
  let lagMax = 0;
  const subscribeBooks = bus.subscribeBooks.bind(bus);
  bus.subscribeBooks = (venue, assetId, handler) =>
    subscribeBooks(venue, assetId, (message) => {
      const lag = Date.now() - message.timestamp;
      booksIn += 1;
      lagSum += lag;
      lagMax = Math.max(lagMax, lag);
      handler(message);
    });
  setInterval(() => {
    let buffered = 0;
    let bufferedMax = 0;
    for (const socket of diagSockets) {
      if (socket.destroyed) diagSockets.delete(socket);
      buffered += socket.writableLength;
      bufferedMax = Math.max(bufferedMax, socket.writableLength);
    }
    const line = {
      t: new Date().toISOString(),
      pid: process.pid,
      booksIn,
      inLagAvgMs: booksIn === 0 ? 0 : Math.round(lagSum / booksIn),
      inLagMaxMs: lagMax,
      loopP99Ms: Math.round(loop.percentile(99) / 1e6),
      loopMaxMs: Math.round(loop.max / 1e6),
      sockets: diagSockets.size,
      bufferedMB: Math.round(buffered / 1e5) / 10,
      bufferedMaxKB: Math.round(bufferedMax / 1024),
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
    booksIn = 0;
    lagSum = 0;
    lagMax = 0;
    loop.reset();
  }, 1000).unref();
}

async function main(): Promise<void> {
  const profileDir = process.env.BENCH_PROFILE_DIR;
  if (profileDir !== undefined) await startProfiling(profileDir);
  const bus: LiveBus =
    role === "inproc" || role === "baseline"
      ? new InProcessBus()
      : await connectNatsBus(process.env.NATS_URL ?? "nats://127.0.0.1:4222", { name: `bench-${role}`, prefix: process.env.NATS_SUBJECT_PREFIX ?? "brier-bench.live" });
  if (role === "publisher") {
    startPublisher(bus);
    emit({ type: "ready", role });
    return;
  }
  if (role === "baseline") {
    const port = await startBaseline(bus);
    startPublisher(bus);
    emit({ type: "ready", role, port });
    return;
  }
  await getDb();
  const diagFile = process.env.BENCH_DIAG_FILE;
  if (diagFile !== undefined) watchDiagnostics(bus, diagFile);
  const hub = new StreamHub({ bus });
  const streams = createStreamServer({ hub: async () => hub });
  const server = createServer((_req, res) => res.writeHead(404).end());
  server.on("upgrade", streams.upgrade);
  if (diagFile !== undefined) server.on("upgrade", (_request, socket: Duplex) => diagSockets.add(socket));
  await new Promise<void>((resolve) => server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => resolve()));
  if (role === "inproc") startPublisher(bus);
  emit({ type: "ready", role, port: (server.address() as AddressInfo).port });
  setInterval(() => stats("web", { booksIn: hub.counters.booksIn, queued: hub.counters.messagesOut, sessions: hub.sessions.size }), 1000);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String((error as Error).stack ?? error)}\n`);
  process.exit(1);
});
