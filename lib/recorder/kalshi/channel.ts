import "server-only";
import WebSocket from "ws";
import { KalshiAuth } from "pmxt-core/dist/exchanges/kalshi/auth";
import { errorFields, log } from "@/lib/log";
import { backoffDelay, closeSocket } from "../socket";

/** Kalshi's production websocket (pmxt-core's KALSHI_PROD_WS_URL). */
export const KALSHI_WS_URL = "wss://api.elections.kalshi.com/trade-api/ws/v2";

/** The channels recorded: order-book snapshots and deltas, and public trades. */
export const KALSHI_CHANNELS = ["orderbook_delta", "trade"] as const;

export interface KalshiCredentials {
  /** Kalshi API key id (KALSHI-ACCESS-KEY). */
  keyId: string;
  /** RSA private key, PEM. */
  privateKey: string;
}

export interface KalshiChannelOptions {
  url: string;
  credentials: KalshiCredentials;
  /** Text frames, with the local receive time. */
  onFrame: (text: string, receivedMs: number) => void;
  /** The socket opened and the subscriptions were sent (`reconnect`: not the first open). */
  onOpen?: (reconnect: boolean) => void;
  /** The socket closed while the connection was meant to be up (it will reconnect). */
  onLost?: () => void;
  onError?: (error: unknown) => void;
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

/**
 * One authenticated Kalshi websocket (the handshake is signed as pmxt-core signs it: RSA-PSS over
 * timestamp + "GET" + path, KALSHI-ACCESS-* headers). Subscribes its tickers to the order-book and
 * trade channels on every (re)connect; later changes go through `update_subscription` on the
 * subscription ids Kalshi acknowledged. Kalshi pings at the protocol level; `ws` answers.
 */
export class KalshiChannelConnection {
  readonly #options: KalshiChannelOptions & { minBackoffMs: number; maxBackoffMs: number };
  readonly #auth: KalshiAuth;
  readonly #tickers = new Set<string>();
  /** Subscription id of each channel on the current socket, from Kalshi's `subscribed` acks. */
  readonly #sids = new Map<string, number>();
  #socket: WebSocket | undefined;
  #retry: NodeJS.Timeout | undefined;
  #attempt = 0;
  #nextId = 1;
  #closed = false;
  #paused = false;
  #everOpened = false;

  constructor(options: KalshiChannelOptions, tickers: Iterable<string>) {
    this.#options = { minBackoffMs: 500, maxBackoffMs: 30_000, ...options };
    this.#auth = new KalshiAuth({ apiKey: options.credentials.keyId, privateKey: options.credentials.privateKey });
    for (const ticker of tickers) this.#tickers.add(ticker);
  }

  get tickers(): ReadonlySet<string> {
    return this.#tickers;
  }

  get open(): boolean {
    return this.#socket?.readyState === WebSocket.OPEN;
  }

  connect(): void {
    if (this.#closed) return;
    let headers: Record<string, string>;
    try {
      headers = this.#auth.getHeaders("GET", new URL(this.#options.url).pathname);
    } catch (error) {
      // A key that cannot sign (not a PEM RSA key) will not sign on the next try either.
      this.#options.onError?.(error);
      log.error("kalshi channel: the private key cannot sign the handshake", errorFields(error));
      return;
    }
    const socket = new WebSocket(this.#options.url, { headers, perMessageDeflate: false, handshakeTimeout: 10_000 });
    this.#socket = socket;
    this.#sids.clear();
    socket.on("open", () => {
      this.#attempt = 0;
      const reconnect = this.#everOpened;
      this.#everOpened = true;
      for (const channel of KALSHI_CHANNELS) this.#subscribe(channel, [...this.#tickers]);
      this.#options.onOpen?.(reconnect);
      if (this.#paused) socket.pause();
    });
    socket.on("message", (raw: WebSocket.RawData, isBinary: boolean) => {
      const receivedMs = Date.now();
      if (isBinary) return;
      const text = Array.isArray(raw) ? Buffer.concat(raw).toString("utf8") : raw.toString("utf8");
      this.#options.onFrame(text, receivedMs);
    });
    socket.on("error", (error) => {
      this.#options.onError?.(error);
      log.warn("kalshi channel error", { url: this.#options.url, ...errorFields(error) });
    });
    socket.on("close", () => {
      if (this.#socket === socket) this.#socket = undefined;
      if (!this.#closed) this.#options.onLost?.();
      this.#scheduleReconnect();
    });
  }

  /** Records a channel's subscription id (from the `subscribed` ack) for later updates. */
  acknowledged(channel: string, sid: number): void {
    this.#sids.set(channel, sid);
  }

  /** Adds and removes tickers on the live connection; kept for reconnects. */
  update(add: readonly string[], remove: readonly string[]): void {
    const added = add.filter((ticker) => !this.#tickers.has(ticker));
    const removed = remove.filter((ticker) => this.#tickers.has(ticker));
    for (const ticker of added) this.#tickers.add(ticker);
    for (const ticker of removed) this.#tickers.delete(ticker);
    if (!this.open) return;
    for (const channel of KALSHI_CHANNELS) {
      const sid = this.#sids.get(channel);
      if (sid === undefined) {
        // Not acknowledged yet (or nothing was subscribed): a fresh subscription of the added tickers.
        this.#subscribe(channel, added);
        continue;
      }
      if (removed.length > 0) this.#send({ cmd: "update_subscription", params: { sids: [sid], market_tickers: removed, action: "delete_markets" } });
      if (added.length > 0) this.#send({ cmd: "update_subscription", params: { sids: [sid], market_tickers: added, action: "add_markets" } });
    }
  }

  /** Back-pressure: stop reading the socket until resumed. */
  setPaused(paused: boolean): void {
    this.#paused = paused;
    if (paused) this.#socket?.pause();
    else this.#socket?.resume();
  }

  /** Drops the connection as a network failure would; it reconnects and resubscribes (fresh snapshots). */
  terminate(): void {
    this.#socket?.terminate();
  }

  close(): Promise<void> {
    this.#closed = true;
    if (this.#retry !== undefined) clearTimeout(this.#retry);
    const socket = this.#socket;
    this.#socket = undefined;
    return closeSocket(socket);
  }

  #subscribe(channel: string, tickers: readonly string[]): void {
    if (tickers.length === 0) return;
    this.#send({ cmd: "subscribe", params: { channels: [channel], market_tickers: tickers } });
  }

  #send(command: { cmd: string; params: Record<string, unknown> }): void {
    const socket = this.#socket;
    if (socket?.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify({ id: this.#nextId++, ...command }));
  }

  #scheduleReconnect(): void {
    if (this.#closed) return;
    const delay = backoffDelay(this.#attempt, this.#options.minBackoffMs, this.#options.maxBackoffMs);
    this.#attempt += 1;
    this.#retry = setTimeout(() => this.connect(), delay);
    this.#retry.unref();
  }
}
