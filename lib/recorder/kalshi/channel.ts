import "server-only";
import { KalshiAuth } from "pmxt-core/dist/exchanges/kalshi/auth";
import { VenueSocket, type VenueSocketOptions } from "../socket";

/** Kalshi's production websocket (pmxt-core's KALSHI_PROD_WS_URL). */
export const KALSHI_WS_URL = "wss://api.elections.kalshi.com/trade-api/ws/v2";

/** The channels recorded: order-book snapshots and deltas, and public trades. */
export const KALSHI_CHANNELS = ["orderbook_delta", "trade"] as const;

/** The lifecycle channel (outcomes: `determined`, `settled`), subscribed for every market. */
export const KALSHI_LIFECYCLE_CHANNEL = "market_lifecycle_v2";

export interface KalshiCredentials {
  /** Kalshi API key id (KALSHI-ACCESS-KEY). */
  keyId: string;
  /** RSA private key, PEM. */
  privateKey: string;
}

export interface KalshiChannelOptions extends VenueSocketOptions {
  credentials: KalshiCredentials;
}

/**
 * One authenticated Kalshi websocket (lib/recorder/socket.ts VenueSocket; the handshake is signed
 * as pmxt-core signs it: RSA-PSS over timestamp + "GET" + path, KALSHI-ACCESS-* headers).
 * Subscribes its tickers to the order-book and trade channels on every (re)connect; later changes
 * go through `update_subscription` on the subscription ids Kalshi acknowledged. Kalshi pings at
 * the protocol level; `ws` answers.
 */
export class KalshiChannelConnection extends VenueSocket {
  readonly #auth: KalshiAuth;
  readonly #tickers = new Set<string>();
  /** Subscription id of each channel on the current socket, from Kalshi's `subscribed` acks. */
  readonly #sids = new Map<string, number>();
  #nextId = 1;

  constructor(options: KalshiChannelOptions, tickers: Iterable<string>) {
    super(options, "kalshi channel");
    this.#auth = new KalshiAuth({ apiKey: options.credentials.keyId, privateKey: options.credentials.privateKey });
    for (const ticker of tickers) this.#tickers.add(ticker);
  }

  get tickers(): ReadonlySet<string> {
    return this.#tickers;
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

  protected override handshakeHeaders(): Record<string, string> {
    return this.#auth.getHeaders("GET", new URL(this.url).pathname);
  }

  protected override socketCreated(): void {
    this.#sids.clear();
  }

  protected override opened(): void {
    for (const channel of KALSHI_CHANNELS) this.#subscribe(channel, [...this.#tickers]);
    // Every market's lifecycle (determination, settlement): the channel takes no ticker filter.
    this.#send({ cmd: "subscribe", params: { channels: [KALSHI_LIFECYCLE_CHANNEL] } });
  }

  #subscribe(channel: string, tickers: readonly string[]): void {
    if (tickers.length === 0) return;
    this.#send({ cmd: "subscribe", params: { channels: [channel], market_tickers: tickers } });
  }

  #send(command: { cmd: string; params: Record<string, unknown> }): void {
    if (this.open) this.send(JSON.stringify({ id: this.#nextId++, ...command }));
  }
}
