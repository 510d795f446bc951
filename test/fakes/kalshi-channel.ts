import { createVerify, constants } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { WebSocketServer, type WebSocket } from "ws";

/**
 * A loopback Kalshi websocket (`/trade-api/ws/v2`) speaking the channel format pmxt-core reads
 * (dist/exchanges/kalshi/websocket.js) and Kalshi documents: a signed handshake (KALSHI-ACCESS-KEY,
 * -TIMESTAMP, -SIGNATURE: RSA-PSS SHA-256 over timestamp + "GET" + path), `subscribe` commands
 * answered with `subscribed` {channel, sid}, then per market an `orderbook_snapshot`
 * (`yes_dollars_fp` / `no_dollars_fp` bid pairs) and `orderbook_delta`s (`price_dollars`, signed
 * `delta_fp`, `side`, `ts_ms`) numbered by `seq` per subscription, and `trade`s (`yes_price_dollars`,
 * `no_price_dollars`, `count_fp`, `taker_side`, `ts` in seconds). `update_subscription` adds or
 * deletes markets of a subscription.
 */

export type Level = [string, string];

export interface KalshiBook {
  yes: Level[];
  no: Level[];
}

export type KalshiEvent =
  | { type: "delta"; ticker: string; side: "yes" | "no"; price: string; delta: string; tsMs: number }
  | { type: "trade"; ticker: string; yesPrice: string; count: string; takerSide: "yes" | "no"; tsMs: number; tradeId: string };

export interface FakeKalshiOptions {
  /** The public key (PEM) the handshake signature must verify with. */
  publicKey: string;
  keyId: string;
  /** Each known market's book at subscription. */
  books: Record<string, KalshiBook>;
  /** Sent, in order, once both channels are subscribed on a connection (only subscribed markets). */
  events: KalshiEvent[];
}

export interface FakeKalshiChannel {
  url: string;
  /** Every text frame sent to clients, per connection, in order. */
  sent: string[][];
  /** Every command clients sent. */
  received: Array<Record<string, unknown>>;
  /** Handshakes refused (bad or missing signature). */
  refused: () => number;
  connections: () => number;
  /** Resolves when `count` connections have sent every event. */
  replays: (count: number) => Promise<void>;
  /** Sends a raw frame to every open client. */
  broadcast: (text: string) => void;
  dropAll: () => void;
  close: () => Promise<void>;
}

export const KALSHI_WS_PATH = "/trade-api/ws/v2";

function signatureValid(request: IncomingMessage, options: FakeKalshiOptions): boolean {
  const key = request.headers["kalshi-access-key"];
  const timestamp = request.headers["kalshi-access-timestamp"];
  const signature = request.headers["kalshi-access-signature"];
  if (key !== options.keyId || typeof timestamp !== "string" || typeof signature !== "string") return false;
  if (Math.abs(Date.now() - Number(timestamp)) > 30_000) return false;
  const verify = createVerify("SHA256");
  verify.update(`${timestamp}GET${new URL(request.url ?? "/", "http://x").pathname}`);
  try {
    return verify.verify({ key: options.publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }, signature, "base64");
  } catch {
    return false;
  }
}

export async function startFakeKalshiChannel(options: FakeKalshiOptions): Promise<FakeKalshiChannel> {
  const sent: string[][] = [];
  const received: Array<Record<string, unknown>> = [];
  const sockets = new Set<WebSocket>();
  let refused = 0;
  let accepted = 0;
  let replaysDone = 0;
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server = new WebSocketServer({
    host: "127.0.0.1",
    port: 0,
    path: KALSHI_WS_PATH,
    verifyClient: (info: { req: IncomingMessage }, done: (ok: boolean, code?: number) => void) => {
      if (signatureValid(info.req, options)) done(true);
      else {
        refused += 1;
        done(false, 401);
      }
    },
  });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));

  server.on("connection", (socket) => {
    accepted += 1;
    sockets.add(socket);
    const log: string[] = [];
    sent.push(log);
    let nextSid = 1;
    const subs = new Map<string, { sid: number; seq: number; tickers: Set<string> }>();
    let replayed = false;
    const send = (message: Record<string, unknown>) => {
      const text = JSON.stringify(message);
      log.push(text);
      socket.send(text);
    };
    const snapshot = (ticker: string) => {
      const sub = subs.get("orderbook_delta");
      if (sub === undefined) return;
      const book = options.books[ticker];
      sub.seq += 1;
      send({
        type: "orderbook_snapshot",
        sid: sub.sid,
        seq: sub.seq,
        msg: book === undefined ? { market_ticker: ticker, market_id: "" } : { market_ticker: ticker, market_id: `id-${ticker}`, yes_dollars_fp: book.yes, no_dollars_fp: book.no },
      });
    };
    const replay = () => {
      if (replayed || !subs.has("orderbook_delta") || !subs.has("trade")) return;
      replayed = true;
      for (const event of options.events) {
        if (event.type === "delta") {
          const sub = subs.get("orderbook_delta");
          if (sub === undefined || !sub.tickers.has(event.ticker)) continue;
          sub.seq += 1;
          send({
            type: "orderbook_delta",
            sid: sub.sid,
            seq: sub.seq,
            msg: { market_ticker: event.ticker, market_id: `id-${event.ticker}`, price_dollars: event.price, delta_fp: event.delta, side: event.side, ts_ms: event.tsMs },
          });
        } else {
          const sub = subs.get("trade");
          if (sub === undefined || !sub.tickers.has(event.ticker)) continue;
          const no = (1 - Number(event.yesPrice)).toFixed(4);
          send({
            type: "trade",
            sid: sub.sid,
            msg: { trade_id: event.tradeId, market_ticker: event.ticker, yes_price_dollars: event.yesPrice, no_price_dollars: no, count_fp: event.count, taker_side: event.takerSide, ts: Math.floor(event.tsMs / 1000), ts_ms: event.tsMs },
          });
        }
      }
      replaysDone += 1;
      for (const waiter of [...waiters]) {
        if (replaysDone >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    };
    socket.on("message", (raw) => {
      let command: Record<string, unknown>;
      try {
        command = JSON.parse(raw.toString()) as Record<string, unknown>;
      } catch {
        send({ type: "error", msg: { code: 1, msg: "Unable to process message" } });
        return;
      }
      received.push(command);
      const params = (command.params ?? {}) as { channels?: string[]; market_tickers?: string[]; sids?: number[]; action?: string };
      if (command.cmd === "subscribe") {
        for (const channel of params.channels ?? []) {
          const sub = { sid: nextSid++, seq: 0, tickers: new Set(params.market_tickers ?? []) };
          subs.set(channel, sub);
          send({ id: command.id, type: "subscribed", msg: { channel, sid: sub.sid } });
          if (channel === "orderbook_delta") for (const ticker of sub.tickers) snapshot(ticker);
        }
        replay();
      } else if (command.cmd === "update_subscription") {
        for (const [channel, sub] of subs) {
          if (!(params.sids ?? []).includes(sub.sid)) continue;
          for (const ticker of params.market_tickers ?? []) {
            if (params.action === "add_markets") {
              sub.tickers.add(ticker);
              if (channel === "orderbook_delta") snapshot(ticker);
            } else sub.tickers.delete(ticker);
          }
        }
        send({ id: command.id, type: "ok" });
      }
    });
    socket.on("close", () => sockets.delete(socket));
  });

  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `ws://127.0.0.1:${port}${KALSHI_WS_PATH}`,
    sent,
    received,
    refused: () => refused,
    connections: () => accepted,
    replays: (count) => (replaysDone >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
    broadcast: (text) => {
      for (const socket of sockets) socket.send(text);
    },
    dropAll: () => {
      for (const socket of sockets) socket.terminate();
    },
    close: async () => {
      for (const socket of sockets) socket.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A deterministic script of Kalshi activity (a seeded generator, as a venue would produce it):
 * deltas that add to, take from and empty levels of both sides, and trades, `stepMs` apart from `startMs`.
 */
export function kalshiScript(books: Record<string, KalshiBook>, count: number, startMs: number, seed = 7, stepMs = 5): KalshiEvent[] {
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const tickers = Object.keys(books);
  const sizes = new Map<string, number>();
  for (const [ticker, book] of Object.entries(books)) {
    for (const side of ["yes", "no"] as const) for (const [price, size] of book[side]) sizes.set(`${ticker}|${side}|${price}`, Math.round(Number(size) * 100));
  }
  const events: KalshiEvent[] = [];
  for (let i = 0; i < count; i += 1) {
    const ticker = tickers[Math.floor(random() * tickers.length)] ?? "";
    const tsMs = startMs + i * stepMs;
    if (random() < 0.1) {
      events.push({ type: "trade", ticker, yesPrice: (0.3 + Math.floor(random() * 40) / 100).toFixed(4), count: `${1 + Math.floor(random() * 50)}.00`, takerSide: random() < 0.5 ? "yes" : "no", tsMs, tradeId: `t-${seed}-${i}` });
      continue;
    }
    const side = random() < 0.5 ? "yes" : "no";
    const price = (0.3 + Math.floor(random() * 30) / 100).toFixed(4);
    const key = `${ticker}|${side}|${price}`;
    const current = sizes.get(key) ?? 0;
    const roll = random();
    const cents = current > 0 && roll < 0.25 ? -current : current > 0 && roll < 0.5 ? -Math.ceil(current / 3) : 100 * (1 + Math.floor(random() * 300));
    sizes.set(key, current + cents);
    const delta = `${cents < 0 ? "-" : ""}${(Math.abs(cents) / 100).toFixed(2)}`;
    events.push({ type: "delta", ticker, side, price, delta, tsMs });
  }
  return events;
}
