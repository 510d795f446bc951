import "server-only";
import { errorAnswer } from "@/lib/http/errors";
import type { Lease } from "@/lib/limits/key-limits";
import { StreamProtocolError, type StreamPrincipal } from "./accounting";
import type { Feed } from "./feeds";
import { Outbox, type OutboxLimits, type Transport } from "./outbox";
import { errorFrame, parseClientMessage, type ClientMessage, type OutMessage, type RequestId, type StreamError } from "./protocol";
import { UsageMeter } from "./usage-meter";

/** What a session asks of the hub it belongs to (lib/streams/hub.ts StreamHub). */
export interface SessionHost {
  subscribe(session: StreamSession, message: ClientMessage): Promise<void>;
  unsubscribe(session: StreamSession, message: ClientMessage): Promise<void>;
  detach(session: StreamSession): void;
  readonly fanout: { collect(feed: Feed, into: OutMessage[]): number };
  readonly counters: { messagesOut: number };
}

/** One subscription of a session (its request id, its topic or feed, its lease of the key's quota). */
export interface Subscription {
  session: StreamSession;
  id: RequestId;
  idJson: string;
  method: string;
  methodJson: string;
  /** Dedupe key, as pmxt builds it: exchange:method:args. */
  key: string;
  symbols: string[];
  weight: number;
  since: number;
  /** The subscription's sequence for messages that do not come from the fan-out (trades, venue watchers). */
  seq: number;
  lease: Lease;
  release: () => void;
}

/** The `{code, message}` of an error, as the HTTP pass-through would answer it (one mapping, lib/http). */
export function toStreamError(error: unknown): StreamError {
  if (error instanceof StreamProtocolError) return { code: error.code, message: error.message };
  const { code, message } = errorAnswer(error, "api", "stream");
  return { code, message };
}

/** A connection admitted by `StreamHub.admitConnection`: the principal and its connection lease. */
export interface AdmittedConnection {
  principal: StreamPrincipal;
  lease: Lease;
}

/**
 * One client connection (a WebSocket, or an SSE response): its subscriptions and its outbox.
 * Messages from the client go to `handle`; everything to the client goes through the outbox,
 * which pulls the live books of the subscriptions with news when it is written.
 */
export class StreamSession {
  readonly principal: StreamPrincipal;
  readonly surface: "ws" | "sse";
  readonly outbox: Outbox;
  readonly subscriptions = new Map<string, Subscription>();
  readonly usage: UsageMeter;
  /** End the session when its last subscription ends (SSE: one request, one subscription). */
  endWhenEmpty = false;
  readonly #hub: SessionHost;
  readonly #lease: Lease;
  /** Live subscriptions with books due at the next write. */
  readonly #due = new Set<Feed>();
  #closed = false;

  constructor(hub: SessionHost, connection: AdmittedConnection, surface: "ws" | "sse", transport: Transport, limits: OutboxLimits, onDirty: (outbox: Outbox) => void) {
    this.#hub = hub;
    this.principal = connection.principal;
    this.#lease = connection.lease;
    this.surface = surface;
    this.usage = new UsageMeter({ accountId: this.principal.accountId, keyId: this.principal.keyId, surface });
    // A close decided here (slow consumer, revoked key) releases the subscriptions at once, not when the client acknowledges it.
    const closing: Transport = {
      buffered: () => transport.buffered(),
      write: (messages) => transport.write(messages),
      close: (code, reason) => {
        transport.close(code, reason);
        this.closedByTransport();
      },
    };
    this.outbox = new Outbox(closing, limits, onDirty, (into) => this.#collect(into));
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** One text message from the client. */
  async handle(text: string): Promise<void> {
    const parsed = parseClientMessage(text);
    if (!parsed.ok) {
      this.outbox.push(errorFrame(parsed.id, { code: "INVALID_MESSAGE", message: parsed.message }));
      return;
    }
    try {
      if (parsed.message.action === "subscribe") await this.#hub.subscribe(this, parsed.message);
      else await this.#hub.unsubscribe(this, parsed.message);
    } catch (error) {
      this.outbox.push(errorFrame(parsed.message.id, toStreamError(error)));
      if (this.endWhenEmpty && this.subscriptions.size === 0) this.outbox.end(1000, "no subscription left");
    }
  }

  /** A live subscription has books due: pulled at the next write. */
  due(feed: Feed): void {
    this.#due.add(feed);
    this.outbox.markDirty();
  }

  forget(feed: Feed): void {
    this.#due.delete(feed);
  }

  /** Counts data messages for usage. */
  delivered(messages: number): void {
    this.usage.delivered(messages);
    this.#hub.counters.messagesOut += messages;
  }

  /** The transport closed (client left, or the server closed it): release everything. */
  closedByTransport(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#due.clear();
    this.#hub.detach(this);
    void this.#lease.release();
  }

  #collect(into: OutMessage[]): void {
    if (this.#due.size === 0) return;
    let count = 0;
    for (const feed of this.#due) count += this.#hub.fanout.collect(feed, into);
    this.#due.clear();
    if (count > 0) this.delivered(count);
  }
}
