import "server-only";
import { connect, type NatsConnection, type Subscription } from "nats";
import { errorFields, log } from "@/lib/log";
import type { BookMessage, LiveBus, ResolutionMessage, SnapshotReply, TradeMessage, Unsubscribe } from "./bus";

/**
 * The live bus over NATS core subjects (at-most-once, in order per publisher, no persistence: a
 * live book is superseded by the next one, and a subscriber that joins gets the current book from
 * the recorder by request/reply, so JetStream adds nothing on this path).
 *
 *   brier.live.book.<venue>.<asset>      book updates       (web instances subscribe per asset, or `brier.live.book.>` for the firehose)
 *   brier.live.trade.<venue>.<asset>     trades
 *   brier.live.snapshot.<venue>.<asset>  request/reply      (the recorder recording the asset answers; nobody answers otherwise)
 */

/** Subject prefix; another prefix isolates a deployment (or a test run) on a shared NATS server. */
export const DEFAULT_SUBJECT_PREFIX = "brier.live";
/** How long a web instance waits for a recorder to answer "what is this asset's book?" */
export const SNAPSHOT_TIMEOUT_MS = 500;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A subject token: ids made of [A-Za-z0-9_-] travel as they are, anything else base64url-encoded behind `~`. */
export function subjectToken(value: string): string {
  return /^[A-Za-z0-9_-]+$/.test(value) ? value : `~${Buffer.from(value, "utf8").toString("base64url")}`;
}

function parse<T>(data: Uint8Array): T | undefined {
  try {
    return JSON.parse(decoder.decode(data)) as T;
  } catch {
    return undefined;
  }
}

export class NatsBus implements LiveBus {
  readonly kind = "nats" as const;
  readonly #nc: NatsConnection;
  readonly #prefix: string;

  constructor(nc: NatsConnection, prefix = DEFAULT_SUBJECT_PREFIX) {
    this.#nc = nc;
    this.#prefix = prefix;
  }

  publishBook(message: BookMessage): void {
    this.#nc.publish(`${this.#prefix}.book.${subjectToken(message.venue)}.${subjectToken(message.assetId)}`, encoder.encode(JSON.stringify(message)));
  }

  publishTrade(message: TradeMessage): void {
    this.#nc.publish(`${this.#prefix}.trade.${subjectToken(message.venue)}.${subjectToken(message.assetId)}`, encoder.encode(JSON.stringify(message)));
  }

  publishResolution(message: ResolutionMessage): void {
    this.#nc.publish(`${this.#prefix}.resolution.${subjectToken(message.venue)}`, encoder.encode(JSON.stringify(message)));
  }

  subscribeResolutions(venue: string | undefined, handler: (message: ResolutionMessage) => void): Unsubscribe {
    return this.#subscribe<ResolutionMessage>(`${this.#prefix}.resolution.${venue === undefined ? "*" : subjectToken(venue)}`, handler);
  }

  subscribeBooks(venue: string | undefined, assetId: string | undefined, handler: (message: BookMessage) => void): Unsubscribe {
    const subject =
      venue === undefined ? `${this.#prefix}.book.>` : `${this.#prefix}.book.${subjectToken(venue)}.${assetId === undefined ? "*" : subjectToken(assetId)}`;
    return this.#subscribe<BookMessage>(subject, handler);
  }

  subscribeTrades(venue: string, assetId: string, handler: (message: TradeMessage) => void): Unsubscribe {
    return this.#subscribe<TradeMessage>(`${this.#prefix}.trade.${subjectToken(venue)}.${subjectToken(assetId)}`, handler);
  }

  serveSnapshots(venue: string, provider: (assetId: string) => SnapshotReply | undefined): Unsubscribe {
    const subscription = this.#nc.subscribe(`${this.#prefix}.snapshot.${subjectToken(venue)}.*`, {
      callback: (error, msg) => {
        if (error !== null) return;
        const request = parse<{ assetId?: unknown }>(msg.data);
        if (typeof request?.assetId !== "string") return;
        const reply = provider(request.assetId);
        // Not ours: stay silent, another recorder shard may record it.
        if (reply !== undefined) msg.respond(encoder.encode(JSON.stringify(reply)));
      },
    });
    return () => subscription.unsubscribe();
  }

  async requestSnapshot(venue: string, assetId: string): Promise<SnapshotReply | undefined> {
    try {
      const msg = await this.#nc.request(`${this.#prefix}.snapshot.${subjectToken(venue)}.${subjectToken(assetId)}`, encoder.encode(JSON.stringify({ assetId })), {
        timeout: SNAPSHOT_TIMEOUT_MS,
      });
      const reply = parse<SnapshotReply>(msg.data);
      return reply?.recorded === true ? reply : undefined;
    } catch (error) {
      // 503: no recorder listens; timeout: none records this asset.
      const code = (error as { code?: unknown }).code;
      if (code === "503" || code === "TIMEOUT") return undefined;
      throw error;
    }
  }

  /** A subscription is only in effect once the server has read it: a round trip (PING/PONG) proves that. */
  ready(): Promise<void> {
    return this.#nc.flush();
  }

  async close(): Promise<void> {
    await this.#nc.drain().catch(() => this.#nc.close());
  }

  #subscribe<T>(subject: string, handler: (message: T) => void): Unsubscribe {
    const subscription: Subscription = this.#nc.subscribe(subject, {
      callback: (error, msg) => {
        if (error !== null) return;
        const message = parse<T>(msg.data);
        if (message !== undefined) handler(message);
      },
    });
    return () => subscription.unsubscribe();
  }
}

/** Connects to NATS (reconnecting for ever) and returns the bus on it. */
export async function connectNatsBus(url: string, options: { name?: string; prefix?: string } = {}): Promise<NatsBus> {
  const nc = await connect({ servers: url, name: options.name ?? "brier", maxReconnectAttempts: -1, reconnectTimeWait: 1_000, pingInterval: 20_000 });
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === "disconnect" || status.type === "reconnect" || status.type === "error") {
        log.warn("nats connection status", { type: status.type, data: String(status.data) });
      }
    }
  })().catch((error: unknown) => log.warn("nats status loop ended", errorFields(error)));
  return new NatsBus(nc, options.prefix);
}
