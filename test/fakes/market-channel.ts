import { readFileSync } from "node:fs";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";

/** The fixture frames, one raw text frame per line (test/fixtures/venues). */
export const fixtureFrames: string[] = readFileSync(
  path.resolve(__dirname, "../fixtures/venues/polymarket_ws_market.jsonl"),
  "utf8",
)
  .split("\n")
  .filter((line) => line.trim() !== "");

export interface FakeMarketChannelOptions {
  /** Frames replayed after each non-empty subscribe (default: the fixture). */
  frames?: string[];
  /** Stop each replay after this many frames (a connection dropped mid-stream). */
  replayLimit?: number;
  /** Pause between frames, ms (default 0: as fast as the socket takes them). */
  frameDelayMs?: number;
}

export interface FakeMarketChannel {
  url: string;
  /** Every text message any client sent, in order (subscriptions, PINGs, operations). */
  received: string[];
  /** Number of accepted connections so far. */
  connections: () => number;
  /** Sockets currently open. */
  openSockets: () => number;
  /** Resolves when a replay has sent all of its frames, `count` replays in total. */
  replays: (count: number) => Promise<void>;
  setReplayLimit: (limit: number | undefined) => void;
  /** Sends a raw text frame to every open client. */
  broadcast: (text: string) => void;
  /** Drops every open connection abruptly (network failure). */
  dropAll: () => void;
  close: () => Promise<void>;
}

/**
 * A loopback Polymarket market channel: replays the frames after a non-empty subscribe, answers
 * the text PING with PONG, and records what clients sent.
 */
export async function startFakeMarketChannel(options: FakeMarketChannelOptions = {}): Promise<FakeMarketChannel> {
  const frames = options.frames ?? fixtureFrames;
  let replayLimit = options.replayLimit;
  const received: string[] = [];
  const sockets = new Set<WebSocket>();
  let accepted = 0;
  let replaysDone = 0;
  const waiters: Array<{ count: number; resolve: () => void }> = [];

  const server = new WebSocketServer({ host: "127.0.0.1", port: 0, path: "/ws/market" });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));

  const replayFinished = () => {
    replaysDone += 1;
    for (const waiter of [...waiters]) {
      if (replaysDone >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };

  const replay = async (socket: WebSocket) => {
    const limit = Math.min(replayLimit ?? frames.length, frames.length);
    for (let i = 0; i < limit; i += 1) {
      if (socket.readyState !== socket.OPEN) return;
      const frame = frames[i];
      if (frame === undefined) break;
      await new Promise<void>((resolve, reject) => socket.send(frame, (error) => (error ? reject(error) : resolve()))).catch(
        () => undefined,
      );
      if (options.frameDelayMs !== undefined && options.frameDelayMs > 0) {
        await new Promise((resolve) => setTimeout(resolve, options.frameDelayMs));
      }
    }
    replayFinished();
    if (replayLimit !== undefined && limit < frames.length) socket.terminate();
  };

  server.on("connection", (socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("message", (raw) => {
      const text = Array.isArray(raw) ? Buffer.concat(raw).toString("utf8") : raw.toString();
      received.push(text);
      if (text === "PING") {
        socket.send("PONG");
        return;
      }
      try {
        const message = JSON.parse(text) as { assets_ids?: unknown; type?: unknown; operation?: unknown };
        const subscribes = message.type === "market" || message.operation === "subscribe";
        if (subscribes && Array.isArray(message.assets_ids) && message.assets_ids.length > 0) void replay(socket);
      } catch {
        // Not JSON: the venue ignores it.
      }
    });
  });

  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/ws/market`,
    received,
    connections: () => accepted,
    openSockets: () => sockets.size,
    replays: (count) =>
      replaysDone >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve })),
    setReplayLimit: (limit) => {
      replayLimit = limit;
    },
    broadcast: (text) => {
      for (const socket of sockets) socket.send(text);
    },
    dropAll: () => {
      for (const socket of sockets) socket.terminate();
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.terminate();
        server.close(() => resolve());
      }),
  };
}
