import "server-only";
import WebSocket from "ws";
import { errorFields, log } from "@/lib/log";

/** Closes a venue socket cleanly, or terminates it after 1 s; resolves once it is gone. */
export function closeSocket(socket: WebSocket | undefined): Promise<void> {
  if (socket === undefined || socket.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    socket.once("close", () => resolve());
    socket.close();
    setTimeout(() => {
      socket.terminate();
      resolve();
    }, 1_000).unref();
  });
}

/** Reconnect delay of the `attempt`-th retry: exponential from minMs up to maxMs, with half of it jittered. */
export function backoffDelay(attempt: number, minMs: number, maxMs: number): number {
  const ceiling = Math.min(maxMs, minMs * 2 ** attempt);
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

export interface VenueSocketOptions {
  url: string;
  /** Text frames (the venue's control frames left out), with the local receive time. */
  onFrame: (text: string, receivedMs: number) => void;
  /** The socket opened and the subscriptions were sent (`reconnect`: not the first open). */
  onOpen?: (reconnect: boolean) => void;
  /** The socket closed while the connection was meant to be up (it will reconnect). */
  onLost?: () => void;
  onError?: (error: unknown) => void;
  /** First reconnect delay; doubles up to maxBackoffMs, with jitter. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

/**
 * The life of one recorder websocket, the same for every venue: connect, (re)subscribe on every
 * open, hand text frames on, pause and resume for back-pressure, reconnect with jittered
 * exponential backoff until closed. A venue's channel (lib/recorder/polymarket/channel.ts,
 * lib/recorder/kalshi/channel.ts) says only what differs: its handshake, its subscription
 * messages, its control frames and keep-alive.
 */
export abstract class VenueSocket {
  protected readonly url: string;
  readonly #options: VenueSocketOptions & { minBackoffMs: number; maxBackoffMs: number };
  readonly #label: string;
  #socket: WebSocket | undefined;
  #retry: NodeJS.Timeout | undefined;
  #attempt = 0;
  #closed = false;
  #paused = false;
  #everOpened = false;

  /** `label` names the channel in logs ("market channel", "kalshi channel"). */
  protected constructor(options: VenueSocketOptions, label: string) {
    this.#options = { minBackoffMs: 500, maxBackoffMs: 30_000, ...options };
    this.url = options.url;
    this.#label = label;
  }

  get open(): boolean {
    return this.#socket?.readyState === WebSocket.OPEN;
  }

  connect(): void {
    if (this.#closed) return;
    let headers: Record<string, string> | undefined;
    try {
      headers = this.handshakeHeaders();
    } catch (error) {
      // A handshake that cannot be prepared (a key that cannot sign) will not be on the next try either.
      this.#options.onError?.(error);
      log.error(`${this.#label}: the handshake cannot be prepared`, errorFields(error));
      return;
    }
    const socket = new WebSocket(this.url, { headers, perMessageDeflate: false, handshakeTimeout: 10_000 });
    this.#socket = socket;
    this.socketCreated();
    socket.on("open", () => {
      this.#attempt = 0;
      const reconnect = this.#everOpened;
      this.#everOpened = true;
      this.opened(socket, reconnect);
      this.#options.onOpen?.(reconnect);
      if (this.#paused) socket.pause();
    });
    socket.on("message", (raw: WebSocket.RawData, isBinary: boolean) => {
      const receivedMs = Date.now();
      if (isBinary) return;
      const text = Array.isArray(raw) ? Buffer.concat(raw).toString("utf8") : raw.toString("utf8");
      if (this.isControlFrame(text)) return;
      this.#options.onFrame(text, receivedMs);
    });
    socket.on("error", (error) => {
      this.#options.onError?.(error);
      log.warn(`${this.#label} error`, { url: this.url, ...errorFields(error) });
    });
    socket.on("close", () => {
      this.socketClosed();
      if (this.#socket === socket) this.#socket = undefined;
      if (!this.#closed) this.#options.onLost?.();
      this.#scheduleReconnect();
    });
  }

  /** Back-pressure: stop reading the socket (TCP pushes back on the venue) until resumed. */
  setPaused(paused: boolean): void {
    this.#paused = paused;
    if (paused) this.#socket?.pause();
    else this.#socket?.resume();
  }

  /** Drops the connection as a network failure would (tests, and a stuck socket); it reconnects and resubscribes. */
  terminate(): void {
    this.#socket?.terminate();
  }

  close(): Promise<void> {
    this.#closed = true;
    if (this.#retry !== undefined) clearTimeout(this.#retry);
    this.socketClosed();
    const socket = this.#socket;
    this.#socket = undefined;
    return closeSocket(socket);
  }

  /** Sends a text message on the open socket; nothing when it is not open (the next open resubscribes). */
  protected send(text: string): void {
    const socket = this.#socket;
    if (socket?.readyState === WebSocket.OPEN) socket.send(text);
  }

  /** Headers of the handshake (a signed one, say); throws when they cannot be made. */
  protected handshakeHeaders(): Record<string, string> | undefined {
    return undefined;
  }

  /** A new socket was made (before it opens): forget what belonged to the previous one. */
  protected socketCreated(): void {}

  /** The socket opened: send the subscriptions (and start any keep-alive). */
  protected abstract opened(socket: WebSocket, reconnect: boolean): void;

  /** The socket closed or is being closed: stop any keep-alive. */
  protected socketClosed(): void {}

  /** A venue frame that is not data (a keep-alive answer). */
  protected isControlFrame(_text: string): boolean {
    return false;
  }

  #scheduleReconnect(): void {
    if (this.#closed) return;
    const delay = backoffDelay(this.#attempt, this.#options.minBackoffMs, this.#options.maxBackoffMs);
    this.#attempt += 1;
    this.#retry = setTimeout(() => this.connect(), delay);
    this.#retry.unref();
  }
}
