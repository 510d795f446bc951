import { spawn } from "node:child_process";
import { stat } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { createTurnQueue, refuseAtCapacity } from "./turns.mjs";

/** Keeps this thread busy for `ms`, as a handler's synchronous PGlite statements do. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spin
  }
}

describe("the turn queue (lib/http/turns.mjs)", () => {
  it("starts one piece per event-loop turn: finished I/O is handled between two pieces, a piece's microtasks before the next", async () => {
    const order: string[] = [];
    const queue = createTurnQueue({ limit: 10 });
    const done = new Promise<void>((resolve) => {
      queue.push(() => {
        order.push("a");
        // A threadpool read that finishes while `a` still holds the thread: its callback runs in the next poll.
        stat(".", () => order.push("io"));
        busy(50);
        void Promise.resolve().then(() => order.push("a, after await"));
      });
      queue.push(() => order.push("b"));
      queue.push(() => {
        order.push("c");
        resolve();
      });
    });
    await done;
    expect(order).toEqual(["a", "a, after await", "io", "b", "c"]);
    expect(queue.stats()).toEqual({ waiting: 0, refused: 0 });
  });

  it("a refused request gets 503 with Retry-After in its surface's error body", async () => {
    const server = createServer((req: IncomingMessage, res: ServerResponse) => refuseAtCapacity(req.url?.startsWith("/api/") === true ? "api" : "v0", res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const v0 = await fetch(`http://127.0.0.1:${port}/v0/markets`);
      expect([v0.status, v0.headers.get("retry-after")]).toEqual([503, "1"]);
      expect(await v0.json()).toEqual({ error: { code: "service_unavailable", message: "The server is at capacity; retry shortly.", retryAfter: 1 } });
      const api = await fetch(`http://127.0.0.1:${port}/api/mock/fetchOrderBook`, { method: "POST" });
      expect(api.status).toBe(503);
      expect(await api.json()).toEqual({ success: false, error: { code: "EXCHANGE_NOT_AVAILABLE", message: "The server is at capacity; retry shortly.", retryable: true } });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("refuses past its limit and queues nothing then", async () => {
    const ran: number[] = [];
    const queue = createTurnQueue({ limit: 2 });
    expect(queue.push(() => ran.push(1))).toBe(true);
    expect(queue.push(() => ran.push(2))).toBe(true);
    expect(queue.push(() => ran.push(3))).toBe(false);
    expect(queue.stats()).toEqual({ waiting: 2, refused: 1 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ran).toEqual([1, 2]);
    expect(queue.push(() => ran.push(4))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ran).toEqual([1, 2, 4]);
  });

  it("under a load that never lets it drain, stays first come first served and keeps its array near what waits", async () => {
    const queue = createTurnQueue({ limit: 100 });
    const ran: number[] = [];
    let next = 0;
    let largest = 0;
    // Each piece queues a new one, so the queue never empties for 5,000 pieces.
    const piece = (n: number) => () => {
      ran.push(n);
      largest = Math.max(largest, queue.stats().waiting);
      if (next < 5_000) queue.push(piece(next++));
    };
    for (let i = 0; i < 50; i += 1) queue.push(piece(next++));
    await new Promise<void>((resolve) => {
      const check = () => (ran.length === 5_000 ? resolve() : setTimeout(check, 5));
      check();
    });
    expect(ran).toEqual(Array.from({ length: 5_000 }, (_, i) => i));
    expect(largest).toBeLessThanOrEqual(50);
    expect(queue.stats()).toEqual({ waiting: 0, refused: 0 });
  });

  /**
   * A server whose requests hold this thread for 40 ms each, and a client in another process (so its
   * own sends do not wait on this thread) that sends 25 of them at once and, 200 ms later, a probe
   * on a fresh connection: how many of the 25 were answered when the probe was.
   */
  async function answeredBeforeProbe(queued: boolean): Promise<number> {
    const queue = createTurnQueue({ limit: 1024 });
    let answered = 0;
    let atProbe = -1;
    const handle = (res: ServerResponse) => {
      busy(40);
      answered += 1;
      res.end("done");
    };
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      if (req.url === "/probe") {
        atProbe = answered;
        return void res.end("ok");
      }
      if (queued) queue.push(() => handle(res));
      else handle(res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const client =
      `const http = require("node:http");` +
      `const get = (path) => new Promise((resolve, reject) => { const req = http.request({ host: "127.0.0.1", port: ${port}, path, agent: false }, (res) => { res.resume(); res.on("end", resolve); }); req.on("error", reject); req.end(); });` +
      `const burst = Array.from({ length: 25 }, () => get("/work"));` +
      `const probe = new Promise((resolve) => setTimeout(resolve, 200)).then(() => get("/probe"));` +
      `Promise.all([...burst, probe]).then(() => process.exit(0), () => process.exit(1));`;
    try {
      const child = spawn(process.execPath, ["-e", client], { stdio: "ignore" });
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      expect(code).toBe(0);
      expect(answered).toBe(25);
      return atProbe;
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it("a server queuing its requests answers a probe sent during a burst of slow handlers before the burst is through", async () => {
    // Unqueued, the probe waits for every handler parsed before it (1 s of this thread).
    expect(await answeredBeforeProbe(false)).toBe(25);
    expect(await answeredBeforeProbe(true)).toBeLessThan(20);
  });
});
