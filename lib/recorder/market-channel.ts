import "server-only";
import WebSocket from "ws";
import { errorFields, log } from "@/lib/log";
import { backoffDelay, closeSocket } from "./socket";

/** Polymarket's practical limit of assets per market-channel connection. */
export const MAX_ASSETS_PER_CONNECTION = 500;

export interface MarketChannelOptions {
  url: string;
  /** Text frames other than PONG, with the local receive time. */
  onFrame: (text: string, receivedMs: number) => void;
  onReconnect?: () => void;
  onError?: (error: unknown) => void;
  /** The socket opened and the subscription was sent (`reconnect`: not the first open). */
  onOpen?: (reconnect: boolean) => void;
  /** The socket closed while the connection was meant to be up (it will reconnect). */
  onLost?: () => void;
  pingIntervalMs?: number;
  /** First reconnect delay; doubles up to maxBackoffMs, with full jitter. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

/**
 * One market-channel websocket: subscribes its asset set on every (re)connect, sends the text
 * PING every 10 s, skips PONG, and reconnects with jittered exponential backoff until closed.
 */
export class MarketChannelConnection {
  readonly #options: Required<Omit<MarketChannelOptions, "onReconnect" | "onError" | "onOpen" | "onLost">> &
    Pick<MarketChannelOptions, "onReconnect" | "onError" | "onOpen" | "onLost">;
  readonly #assets = new Set<string>();
  #socket: WebSocket | undefined;
  #ping: NodeJS.Timeout | undefined;
  #retry: NodeJS.Timeout | undefined;
  #attempt = 0;
  #closed = false;
  #paused = false;
  #everOpened = false;

  constructor(options: MarketChannelOptions, assets: Iterable<string>) {
    this.#options = { pingIntervalMs: 10_000, minBackoffMs: 500, maxBackoffMs: 30_000, ...options };
    for (const asset of assets) this.#assets.add(asset);
  }

  get assets(): ReadonlySet<string> {
    return this.#assets;
  }

  get open(): boolean {
    return this.#socket?.readyState === WebSocket.OPEN;
  }

  connect(): void {
    if (this.#closed) return;
    const socket = new WebSocket(this.#options.url, { perMessageDeflate: false, handshakeTimeout: 10_000 });
    this.#socket = socket;
    socket.on("open", () => {
      this.#attempt = 0;
      const reconnect = this.#everOpened;
      if (reconnect) this.#options.onReconnect?.();
      this.#everOpened = true;
      this.#sendSubscription();
      this.#options.onOpen?.(reconnect);
      this.#ping = setInterval(() => {
        if (socket.readyState === WebSocket.OPEN) socket.send("PING");
      }, this.#options.pingIntervalMs);
      this.#ping.unref();
      if (this.#paused) socket.pause();
    });
    socket.on("message", (raw: WebSocket.RawData, isBinary: boolean) => {
      const receivedMs = Date.now();
      if (isBinary) return;
      const text = Array.isArray(raw) ? Buffer.concat(raw).toString("utf8") : raw.toString("utf8");
      if (text === "PONG") return;
      this.#options.onFrame(text, receivedMs);
    });
    socket.on("error", (error) => {
      this.#options.onError?.(error);
      log.warn("market channel error", { url: this.#options.url, ...errorFields(error) });
    });
    socket.on("close", () => {
      if (this.#ping !== undefined) clearInterval(this.#ping);
      this.#ping = undefined;
      if (this.#socket === socket) this.#socket = undefined;
      if (!this.#closed) this.#options.onLost?.();
      this.#scheduleReconnect();
    });
  }

  /** Adds and removes assets on the live connection (`operation` messages); kept for reconnects. */
  update(add: readonly string[], remove: readonly string[]): void {
    const added = add.filter((asset) => !this.#assets.has(asset));
    const removed = remove.filter((asset) => this.#assets.has(asset));
    for (const asset of added) this.#assets.add(asset);
    for (const asset of removed) this.#assets.delete(asset);
    const socket = this.#socket;
    if (socket?.readyState !== WebSocket.OPEN) return;
    if (removed.length > 0) socket.send(JSON.stringify({ operation: "unsubscribe", assets_ids: removed }));
    if (added.length > 0) socket.send(JSON.stringify({ operation: "subscribe", assets_ids: added }));
  }

  /** Back-pressure: stop reading the socket (TCP pushes back on the venue) until resumed. */
  setPaused(paused: boolean): void {
    this.#paused = paused;
    if (paused) this.#socket?.pause();
    else this.#socket?.resume();
  }

  /** Drops the connection as a network failure would (tests, and a stuck socket). */
  terminate(): void {
    this.#socket?.terminate();
  }

  close(): Promise<void> {
    this.#closed = true;
    if (this.#retry !== undefined) clearTimeout(this.#retry);
    if (this.#ping !== undefined) clearInterval(this.#ping);
    const socket = this.#socket;
    this.#socket = undefined;
    return closeSocket(socket);
  }

  #sendSubscription(): void {
    if (this.#assets.size === 0) return;
    this.#socket?.send(JSON.stringify({ assets_ids: [...this.#assets], type: "market", custom_feature_enabled: false }));
  }

  #scheduleReconnect(): void {
    if (this.#closed) return;
    const delay = backoffDelay(this.#attempt, this.#options.minBackoffMs, this.#options.maxBackoffMs);
    this.#attempt += 1;
    this.#retry = setTimeout(() => this.connect(), delay);
    this.#retry.unref();
  }
}
