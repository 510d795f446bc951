/**
 * One process of `npm run bench:stream` (spawned by scripts/bench/stream.ts, never run by hand):
 *   BENCH_ROLE=inproc     a stream server (/ws on node:http, the handler server.mjs mounts) with the
 *                         publisher in the same process on the in-process bus (the embedded setup)
 *   BENCH_ROLE=web        a stream server on the NATS bus (a web instance)
 *   BENCH_ROLE=publisher  the publisher alone on the NATS bus (the recorder's side)
 * The publisher replays the recorded market-channel frames (test/fixtures) at BENCH_RATE book
 * updates per second through the recorder's own live path (normalizeFrame -> BookStore ->
 * LivePublisher), each frame stamped with the time it is replayed (so `timestamp` in every book
 * delivered is its publish time). Reports JSON lines on stdout: ready, then stats every second.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { BookStore, type AssetBook } from "@/lib/books/book-state";
import { getDb } from "@/lib/db";
import { normalizeFrame } from "@/lib/recorder/normalize";
import { InProcessBus, type LiveBus } from "@/lib/streams/bus";
import { StreamHub } from "@/lib/streams/hub";
import { connectNatsBus } from "@/lib/streams/nats-bus";
import { LivePublisher } from "@/lib/streams/publisher";
import { createStreamServer } from "@/lib/streams/ws-server";

const role = process.env.BENCH_ROLE ?? "inproc";
const rate = Number(process.env.BENCH_RATE ?? 5000);
const copies = Number(process.env.BENCH_ASSET_COPIES ?? 25);

function emit(line: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/** The fixture frames, each asset copied `copies` times under new ids (more assets, same shapes). */
function frames(): string[] {
  const raw = readFileSync(path.resolve("test/fixtures/venues/polymarket_ws_market.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
  const out: string[] = [];
  for (let copy = 0; copy < copies; copy += 1) {
    for (const line of raw) out.push(copy === 0 ? line : line.replace(/"asset_id":"(\d+)"/g, `"asset_id":"$1-${copy}"`));
  }
  return out;
}

function startPublisher(bus: LiveBus): void {
  const publisher = new LivePublisher(bus);
  const store = new BookStore();
  const replay = frames();
  let next = 0;
  let published = 0;
  const started = performance.now();
  // Book snapshots first so every asset has a book, then the loop at the fixed rate.
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
  setInterval(() => emit({ type: "publisher", published, rss: process.memoryUsage().rss }), 1000);
}

async function main(): Promise<void> {
  const bus: LiveBus =
    role === "inproc" ? new InProcessBus() : await connectNatsBus(process.env.NATS_URL ?? "nats://127.0.0.1:4222", { name: `bench-${role}`, prefix: process.env.NATS_SUBJECT_PREFIX ?? "brier-bench.live" });
  if (role === "publisher") {
    startPublisher(bus);
    emit({ type: "ready", role });
    return;
  }
  await getDb();
  const hub = new StreamHub({ bus });
  const streams = createStreamServer({ hub: async () => hub });
  const server = createServer((_req, res) => res.writeHead(404).end());
  server.on("upgrade", streams.upgrade);
  await new Promise<void>((resolve) => server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => resolve()));
  if (role === "inproc") startPublisher(bus);
  emit({ type: "ready", role, port: (server.address() as AddressInfo).port });
  setInterval(() => {
    let coalesced = 0;
    for (const session of hub.sessions) coalesced += session.outbox.coalesced;
    emit({ type: "web", booksIn: hub.counters.booksIn, queued: hub.counters.messagesOut, coalesced, sessions: hub.sessions.size, rss: process.memoryUsage().rss });
  }, 1000);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String((error as Error).stack ?? error)}\n`);
  process.exit(1);
});
