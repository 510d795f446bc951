/**
 * One subscriber process of `npm run bench:stream` (spawned by scripts/bench/stream.ts, never run
 * by hand): BENCH_CLIENTS WebSocket clients spread over BENCH_PORTS, each with one subscription:
 * the firehose (BENCH_MODE=firehose) or one market's 10 books (BENCH_MODE=market: watchOrderBooks
 * of 10 consecutive assets of the replay). Measured per data message: bytes, publish-to-receive
 * latency (each book's `timestamp` is its publish time). Every 100 ms, each client's staleness:
 * how old the newest book it holds is. Commands on stdin, one per line: `subscribe` (every client
 * sends its subscription: all connect first, so connecting is not slowed by the flow), `reset`
 * (start the measured window), `report` (print the window's figures as one JSON line), `close`.
 */
import { appendFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import WebSocket from "ws";
import { benchAssets } from "./stream-assets";

const ports = (process.env.BENCH_PORTS ?? "").split(",").map(Number);
const key = process.env.BENCH_KEY ?? "";
const clients = Number(process.env.BENCH_CLIENTS ?? 100);
const offset = Number(process.env.BENCH_OFFSET ?? 0);
const mode = process.env.BENCH_MODE === "market" ? "market" : "firehose";
const MARKET_BOOKS = 10;

const latency = new Uint32Array(60_001);
const staleness = new Uint32Array(60_001);
let received = 0;
let bytes = 0;
let closed = 0;
const newest: number[] = [];
const sockets: WebSocket[] = [];
/** Each socket's subscribe message, sent on `subscribe` (all connections open first, then the flow starts). */
const subscriptions: string[] = [];
const assets = benchAssets();

function emit(line: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

function subscription(index: number): Record<string, unknown> {
  if (mode === "firehose") return { id: `fh-${index}`, action: "subscribe", exchange: "polymarket", method: "firehose", args: [] };
  const groups = Math.max(1, Math.floor(assets.length / MARKET_BOOKS));
  const first = (index % groups) * MARKET_BOOKS;
  return { id: `m-${index}`, action: "subscribe", exchange: "polymarket", method: "watchOrderBooks", args: [assets.slice(first, first + MARKET_BOOKS)] };
}

function open(index: number): Promise<void> {
  const port = ports[index % ports.length];
  return new Promise<void>((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${String(port)}/ws?apiKey=${key}`, { perMessageDeflate: false, handshakeTimeout: 60_000 });
    const slot = sockets.length;
    socket.once("error", reject);
    socket.once("open", () => {
      sockets.push(socket);
      subscriptions.push(JSON.stringify(subscription(index)));
      newest[slot] = 0;
      resolve();
    });
    socket.on("close", () => (closed += 1));
    socket.on("message", (raw: Buffer) => {
      const text = raw.toString("latin1");
      const at = text.lastIndexOf('"timestamp":');
      if (at < 0) return;
      const stamp = Number.parseInt(text.slice(at + 12), 10);
      const ms = Date.now() - stamp;
      received += 1;
      bytes += raw.length;
      const bucket = Math.max(0, Math.min(60_000, ms));
      latency[bucket] = (latency[bucket] ?? 0) + 1;
      if (stamp > (newest[slot] ?? 0)) newest[slot] = stamp;
    });
  });
}

async function openAll(): Promise<void> {
  for (let i = 0; i < clients; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, clients - i) }, async (_, j) => {
        for (let attempt = 1; ; attempt += 1) {
          try {
            await open(offset + i + j);
            return;
          } catch (error) {
            if (attempt >= 5) throw error;
            await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
          }
        }
      }),
    );
  }
}

function sparse(histogram: Uint32Array): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let ms = 0; ms < histogram.length; ms += 1) if ((histogram[ms] ?? 0) > 0) out.push([ms, histogram[ms] ?? 0]);
  return out;
}

setInterval(() => {
  const now = Date.now();
  for (const stamp of newest) {
    if (stamp === 0) continue;
    const bucket = Math.max(0, Math.min(60_000, now - stamp));
    staleness[bucket] = (staleness[bucket] ?? 0) + 1;
  }
}, 100).unref();

// BENCH_DIAG_FILE: once a second, this subscriber process's event-loop delay and what it received.
const diagFile = process.env.BENCH_DIAG_FILE;
if (diagFile !== undefined) {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let lastReceived = 0;
  setInterval(() => {
    const line = { t: new Date().toISOString(), pid: process.pid, role: "subscribers", clients: sockets.length, msgs: received - lastReceived, loopP99Ms: Math.round(loop.percentile(99) / 1e6), loopMaxMs: Math.round(loop.max / 1e6) };
    appendFileSync(diagFile, `${JSON.stringify(line)}\n`);
    lastReceived = received;
    loop.reset();
  }, 1000).unref();
}

let input = "";
process.stdin.on("data", (chunk: Buffer) => {
  input += chunk.toString();
  let index: number;
  while ((index = input.indexOf("\n")) >= 0) {
    const command = input.slice(0, index).trim();
    input = input.slice(index + 1);
    if (command === "subscribe") {
      sockets.forEach((socket, i) => socket.send(subscriptions[i] ?? ""));
      emit({ type: "subscribed" });
    } else if (command === "reset") {
      received = 0;
      bytes = 0;
      latency.fill(0);
      staleness.fill(0);
      emit({ type: "reset" });
    } else if (command === "report") {
      emit({ type: "report", received, bytes, closed, latency: sparse(latency), staleness: sparse(staleness) });
    } else if (command === "close") {
      for (const socket of sockets) socket.terminate();
      process.exit(0);
    }
  }
});

openAll().then(
  () => emit({ type: "ready", clients: sockets.length }),
  (error: unknown) => {
    process.stderr.write(`${String((error as Error).stack ?? error)}\n`);
    process.exit(1);
  },
);
