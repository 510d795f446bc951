import "server-only";
import type WebSocket from "ws";
import { VenueSocket, type VenueSocketOptions } from "../socket";

/** Polymarket's practical limit of assets per market-channel connection. */
export const MAX_ASSETS_PER_CONNECTION = 500;

export interface MarketChannelOptions extends VenueSocketOptions {
  /** The socket opened again after a loss (before the subscription is sent). */
  onReconnect?: () => void;
  pingIntervalMs?: number;
}

/**
 * One market-channel websocket (lib/recorder/socket.ts VenueSocket): subscribes its asset set on
 * every (re)connect, sends the text PING every 10 s and skips the PONG.
 */
export class MarketChannelConnection extends VenueSocket {
  readonly #onReconnect: (() => void) | undefined;
  readonly #pingIntervalMs: number;
  readonly #assets = new Set<string>();
  #ping: NodeJS.Timeout | undefined;

  constructor(options: MarketChannelOptions, assets: Iterable<string>) {
    super(options, "market channel");
    this.#onReconnect = options.onReconnect;
    this.#pingIntervalMs = options.pingIntervalMs ?? 10_000;
    for (const asset of assets) this.#assets.add(asset);
  }

  get assets(): ReadonlySet<string> {
    return this.#assets;
  }

  /** Adds and removes assets on the live connection (`operation` messages); kept for reconnects. */
  update(add: readonly string[], remove: readonly string[]): void {
    const added = add.filter((asset) => !this.#assets.has(asset));
    const removed = remove.filter((asset) => this.#assets.has(asset));
    for (const asset of added) this.#assets.add(asset);
    for (const asset of removed) this.#assets.delete(asset);
    if (removed.length > 0) this.send(JSON.stringify({ operation: "unsubscribe", assets_ids: removed }));
    if (added.length > 0) this.send(JSON.stringify({ operation: "subscribe", assets_ids: added, custom_feature_enabled: true }));
  }

  protected override opened(socket: WebSocket, reconnect: boolean): void {
    if (reconnect) this.#onReconnect?.();
    if (this.#assets.size > 0) this.send(JSON.stringify({ assets_ids: [...this.#assets], type: "market", custom_feature_enabled: true }));
    this.#ping = setInterval(() => {
      if (socket.readyState === socket.OPEN) socket.send("PING");
    }, this.#pingIntervalMs);
    this.#ping.unref();
  }

  protected override socketClosed(): void {
    if (this.#ping !== undefined) clearInterval(this.#ping);
    this.#ping = undefined;
  }

  protected override isControlFrame(text: string): boolean {
    return text === "PONG";
  }
}
