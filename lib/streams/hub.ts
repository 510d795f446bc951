import "server-only";
import { ownerOf } from "@/lib/auth/principal";
import type { Plan } from "@/lib/config";
import { config } from "@/lib/config";
import { errorResponse } from "@/lib/http/errors";
import { errorFields, log } from "@/lib/log";
import { prepareCall } from "@/lib/passthrough/dispatch";
import { findMethod, isExchangeKey } from "@/lib/venues/registry";
import type { BookMessage, LiveBus, TradeMessage, Unsubscribe } from "./bus";
import { EncodedBook, tradeData } from "./encode";
import { FlushScheduler, Outbox, type OutboxLimits, type Transport } from "./outbox";
import { dataFrame, errorFrame, parseClientMessage, subscribedFrame, type ClientMessage, type RequestId, type StreamError } from "./protocol";
import { VenueWatchers } from "./venue-watchers";

/** The venue the recorder records: its books and trades come from the live path. */
export const RECORDED_VENUE = "polymarket";
const LIVE_METHODS = new Set(["watchOrderBook", "watchOrderBooks", "watchTrades"]);
/** pmxt's unsubscribe names for a watch method. */
const UNWATCH: Record<string, string> = { unwatchOrderBook: "watchOrderBook", unwatchAddress: "watchAddress" };

export interface StreamPrincipal {
  accountId: string;
  /** The API key; null for a dashboard session (SSE). */
  keyId: string | null;
  plan: Plan;
}

export interface HubLimits extends OutboxLimits {
  subscriptions: Record<Plan, number>;
  connectionsPerKey: number;
}

export function configuredLimits(): HubLimits {
  const s = config.streams;
  return {
    subscriptions: s.subscriptions,
    connectionsPerKey: s.connectionsPerKey,
    bufferBytes: s.bufferBytes,
    maxPending: s.maxPending,
    slowConsumerMs: s.slowConsumerMs,
  };
}

/** Messages and time of one session, handed to the usage store when it closes and every minute. */
export interface StreamUsageSample {
  accountId: string;
  keyId: string | null;
  surface: "ws" | "sse";
  /** Subscription-seconds since the last sample (two subscriptions for 30 s = 60). */
  streamSeconds: number;
  messages: number;
}

interface Subscription {
  session: StreamSession;
  id: RequestId;
  idJson: string;
  method: string;
  methodJson: string;
  /** Dedupe key, as pmxt builds it: exchange:method:args. */
  key: string;
  symbols: string[];
  limit: number | undefined;
  /** firehose: venues to keep (undefined: all). */
  venues: Set<string> | undefined;
  /** Last book delivered per symbol: nothing older is ever delivered after it. */
  last: Map<string, { epoch: string; seq: number }>;
  weight: number;
  since: number;
  release: () => void;
}

/** Connections and subscriptions are counted per owner (lib/auth/principal.ts): the key, or the account of a session. */
function accountingKey(principal: StreamPrincipal): string {
  return ownerOf(principal);
}

/** The `{code, message}` of an error, as the HTTP pass-through would answer it (one mapping, lib/http). */
function toStreamError(error: unknown): StreamError {
  if (isStreamProtocolError(error)) return { code: error.code, message: error.message };
  const body = JSON.parse(errorResponse(error, "api", "stream").text) as { error?: { code?: unknown; message?: unknown } };
  return {
    code: typeof body.error?.code === "string" ? body.error.code : "INTERNAL_ERROR",
    message: typeof body.error?.message === "string" ? body.error.message : "Internal server error.",
  };
}

function newer(last: { epoch: string; seq: number } | undefined, message: BookMessage): boolean {
  return last === undefined || last.epoch !== message.epoch || message.seq > last.seq;
}

/**
 * One client connection (a WebSocket, or an SSE response): its subscriptions and its outbox.
 * Messages from the client go to `handle`; everything to the client goes through the outbox.
 */
export class StreamSession {
  readonly principal: StreamPrincipal;
  readonly surface: "ws" | "sse";
  readonly outbox: Outbox;
  readonly subscriptions = new Map<string, Subscription>();
  /** End the session when its last subscription ends (SSE: one request, one subscription). */
  endWhenEmpty = false;
  readonly #hub: StreamHub;
  #messages = 0;
  #sampledAt = Date.now();
  #streamMs = 0;
  #closed = false;

  constructor(hub: StreamHub, principal: StreamPrincipal, surface: "ws" | "sse", transport: Transport, limits: OutboxLimits, onDirty: (outbox: Outbox) => void) {
    this.#hub = hub;
    this.principal = principal;
    this.surface = surface;
    // A close decided here (slow consumer, revoked key) releases the subscriptions at once, not when the client acknowledges it.
    const closing: Transport = {
      buffered: () => transport.buffered(),
      write: (messages) => transport.write(messages),
      close: (code, reason) => {
        transport.close(code, reason);
        this.closedByTransport();
      },
    };
    this.outbox = new Outbox(closing, limits, onDirty);
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
      else this.#hub.unsubscribe(this, parsed.message);
    } catch (error) {
      this.outbox.push(errorFrame(parsed.message.id, toStreamError(error)));
      if (this.endWhenEmpty && this.subscriptions.size === 0) this.outbox.end(1000, "no subscription left");
    }
  }

  /** Counts a data message for usage. */
  delivered(): void {
    this.#messages += 1;
  }

  /** Usage since the last sample. */
  sample(now = Date.now()): StreamUsageSample {
    let ms = this.#streamMs;
    for (const subscription of this.subscriptions.values()) ms += (now - Math.max(subscription.since, this.#sampledAt)) * subscription.weight;
    const sample: StreamUsageSample = {
      accountId: this.principal.accountId,
      keyId: this.principal.keyId,
      surface: this.surface,
      streamSeconds: ms / 1000,
      messages: this.#messages,
    };
    this.#messages = 0;
    this.#streamMs = 0;
    this.#sampledAt = now;
    return sample;
  }

  /** Time of a subscription that ended, for the next sample. */
  ended(subscription: Subscription, now = Date.now()): void {
    this.#streamMs += (now - Math.max(subscription.since, this.#sampledAt)) * subscription.weight;
  }

  /** The transport closed (client left, or the server closed it): release everything. */
  closedByTransport(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#hub.detach(this);
  }
}

export interface StreamHubOptions {
  bus: LiveBus;
  limits?: HubLimits;
  /** Where usage samples go (the stream usage store). */
  onUsage?: (sample: StreamUsageSample) => void;
}

/**
 * The process's stream fan-out: sessions, their subscriptions by topic, one bus subscription per
 * topic (and one for the firehose) however many clients share it, plan limits per key, and the
 * per-key venue watchers for what the recorder does not record.
 */
export class StreamHub {
  readonly bus: LiveBus;
  readonly limits: HubLimits;
  readonly watchers = new VenueWatchers();
  readonly sessions = new Set<StreamSession>();
  readonly #scheduler = new FlushScheduler();
  readonly #onUsage: ((sample: StreamUsageSample) => void) | undefined;
  readonly #bookTopics = new Map<string, { subscriptions: Set<Subscription>; unsubscribe: Unsubscribe }>();
  readonly #tradeTopics = new Map<string, { subscriptions: Set<Subscription>; unsubscribe: Unsubscribe }>();
  readonly #firehose = new Set<Subscription>();
  #firehoseUnsubscribe: Unsubscribe | undefined;
  #firehoseReady: Promise<void> = Promise.resolve();
  /** Book updates received this turn of the event loop, the latest per book, fanned out once per turn. */
  readonly #incoming = new Map<string, { message: BookMessage; topic: boolean; firehose: boolean }>();
  #drainScheduled = false;
  readonly #subscriptionsByKey = new Map<string, number>();
  readonly #connectionsByKey = new Map<string, number>();
  #usageTimer: NodeJS.Timeout | undefined;
  /** Book updates received from the bus, and data messages queued to clients. */
  readonly counters = { booksIn: 0, tradesIn: 0, messagesOut: 0 };

  constructor(options: StreamHubOptions) {
    this.bus = options.bus;
    this.limits = options.limits ?? configuredLimits();
    this.#onUsage = options.onUsage;
    if (this.#onUsage !== undefined) {
      this.#usageTimer = setInterval(() => this.#sampleAll(), 60_000);
      this.#usageTimer.unref();
    }
  }

  /** Reserves a connection slot for a key; false past the per-key cap. */
  admitConnection(principal: StreamPrincipal): boolean {
    const key = accountingKey(principal);
    const open = this.#connectionsByKey.get(key) ?? 0;
    if (open >= this.limits.connectionsPerKey) return false;
    this.#connectionsByKey.set(key, open + 1);
    return true;
  }

  /** Gives back a slot taken by admitConnection when no session was opened with it. */
  releaseConnection(principal: StreamPrincipal): void {
    const key = accountingKey(principal);
    const open = (this.#connectionsByKey.get(key) ?? 1) - 1;
    if (open <= 0) this.#connectionsByKey.delete(key);
    else this.#connectionsByKey.set(key, open);
  }

  /** Opens a session on a transport, for a principal admitted by admitConnection. */
  open(principal: StreamPrincipal, surface: "ws" | "sse", transport: Transport): StreamSession {
    const session = new StreamSession(this, principal, surface, transport, this.limits, this.#scheduler.mark);
    this.sessions.add(session);
    return session;
  }

  subscriptionsOf(principal: StreamPrincipal): number {
    return this.#subscriptionsByKey.get(accountingKey(principal)) ?? 0;
  }

  async subscribe(session: StreamSession, message: ClientMessage): Promise<void> {
    const { id, exchange, method, args } = message;
    const key = `${exchange}:${method}:${JSON.stringify(args)}`;
    for (const existing of session.subscriptions.values()) {
      if (existing.key === key) throw streamError("ALREADY_SUBSCRIBED", `Already subscribed to ${key}.`);
      if (existing.id === id) throw streamError("ALREADY_SUBSCRIBED", `Request id ${JSON.stringify(id)} is already in use on this connection.`);
    }
    if (method === "firehose") {
      const venues = parseVenues(args);
      this.#reserve(session, 1);
      const subscription = this.#subscription(session, message, key, [], undefined, 1);
      subscription.venues = venues;
      this.#firehose.add(subscription);
      if (this.#firehoseUnsubscribe === undefined) {
        this.#firehoseUnsubscribe = this.bus.subscribeBooks(undefined, undefined, (book) => this.#onBook(book, true));
        this.#firehoseReady = this.bus.ready().catch((error: unknown) => log.warn("firehose subscription not confirmed", errorFields(error)));
      }
      subscription.release = () => {
        this.#firehose.delete(subscription);
        if (this.#firehose.size === 0) {
          this.#firehoseUnsubscribe?.();
          this.#firehoseUnsubscribe = undefined;
        }
      };
      // "subscribed" promises every update after it: answer once the bus subscription is in effect.
      await this.#firehoseReady;
      if (session.subscriptions.has(key)) session.outbox.push(subscribedFrame(id));
      return;
    }
    if (!method.startsWith("watch")) {
      if (findMethod(method) !== undefined && isExchangeKey(exchange)) {
        throw streamError("BAD_REQUEST", `Method '${method}' is not a streaming method. Use the HTTP API for non-streaming calls.`);
      }
    }
    // The pass-through's own validation: unknown venue or method -> NOT_FOUND, bad args -> VALIDATION_ERROR.
    const prepared = prepareCall({
      exchange,
      method,
      input: { kind: "body", body: { args, credentials: message.credentials ?? undefined } },
      caller: { owner: ownerOf(session.principal), bearer: undefined },
    });
    const symbols = symbolsOf(method, prepared.args);
    const limit = bookLimit(method, prepared.args);
    const weight = Math.max(1, symbols.length);
    this.#reserve(session, weight);
    const subscription = this.#subscription(session, message, key, symbols, limit, weight);
    const live =
      exchange === RECORDED_VENUE &&
      LIVE_METHODS.has(method) &&
      prepared.credentials === undefined &&
      !(method === "watchTrades" && prepared.args[1] !== undefined) &&
      (await this.#attachLive(subscription));
    if (session.closed || !session.subscriptions.has(subscription.key)) return;
    if (!live) this.#attachWatcher(subscription, { exchange, method, args: prepared.args, credentials: prepared.credentials });
  }

  unsubscribe(session: StreamSession, message: ClientMessage): void {
    const method = UNWATCH[message.method] ?? message.method;
    const key = `${message.exchange}:${method}:${JSON.stringify(message.args)}`;
    let found: Subscription | undefined = session.subscriptions.get(key);
    if (found === undefined) {
      for (const subscription of session.subscriptions.values()) if (subscription.id === message.id) found = subscription;
    }
    if (found === undefined) throw streamError("NOT_SUBSCRIBED", `No active subscription for ${key}.`);
    this.#end(found);
    session.outbox.push(subscribedFrame(message.id));
  }

  /** A session closed: every subscription released, its connection slot given back, its usage sampled. */
  detach(session: StreamSession): void {
    if (!this.sessions.delete(session)) return;
    for (const subscription of [...session.subscriptions.values()]) this.#end(subscription);
    this.releaseConnection(session.principal);
    this.#onUsage?.(session.sample());
  }

  /** Closes every session of a key (revoked). */
  closeKey(keyId: string, reason: string): void {
    for (const session of [...this.sessions]) if (session.principal.keyId === keyId) session.outbox.close(1008, reason);
  }

  /** Distinct keys with open sessions (the revocation check). */
  openKeyIds(): string[] {
    const ids = new Set<string>();
    for (const session of this.sessions) if (session.principal.keyId !== null) ids.add(session.principal.keyId);
    return [...ids];
  }

  async close(): Promise<void> {
    if (this.#usageTimer !== undefined) clearInterval(this.#usageTimer);
    for (const session of [...this.sessions]) session.outbox.close(1001, "server shutting down");
    for (const session of [...this.sessions]) this.detach(session);
  }

  #sampleAll(): void {
    for (const session of this.sessions) this.#onUsage?.(session.sample());
  }

  #reserve(session: StreamSession, weight: number): void {
    const key = accountingKey(session.principal);
    const used = this.#subscriptionsByKey.get(key) ?? 0;
    const limit = this.limits.subscriptions[session.principal.plan];
    if (used + weight > limit) {
      throw streamError(
        "SUBSCRIPTION_LIMIT",
        `The ${session.principal.plan} plan allows ${limit} concurrent stream subscriptions per key; this key holds ${used} and this subscription needs ${weight}.`,
      );
    }
    this.#subscriptionsByKey.set(key, used + weight);
  }

  #subscription(session: StreamSession, message: ClientMessage, key: string, symbols: string[], limit: number | undefined, weight: number): Subscription {
    const subscription: Subscription = {
      session,
      id: message.id,
      idJson: JSON.stringify(message.id),
      method: message.method,
      methodJson: JSON.stringify(message.method),
      key,
      symbols,
      limit,
      venues: undefined,
      last: new Map(),
      weight,
      since: Date.now(),
      release: () => undefined,
    };
    session.subscriptions.set(key, subscription);
    return subscription;
  }

  #end(subscription: Subscription): void {
    const { session } = subscription;
    if (session.subscriptions.get(subscription.key) !== subscription) return;
    session.subscriptions.delete(subscription.key);
    session.ended(subscription);
    subscription.release();
    const key = accountingKey(session.principal);
    const left = (this.#subscriptionsByKey.get(key) ?? subscription.weight) - subscription.weight;
    if (left <= 0) this.#subscriptionsByKey.delete(key);
    else this.#subscriptionsByKey.set(key, left);
    if (session.endWhenEmpty && session.subscriptions.size === 0 && !session.closed) session.outbox.end(1000, "no subscription left");
  }

  /**
   * Serves a subscription from the recorder's live books: topic subscriptions first (so no update
   * falls between), then the current book of each symbol. False when an asset is not recorded.
   */
  async #attachLive(subscription: Subscription): Promise<boolean> {
    const trades = subscription.method === "watchTrades";
    const releases: Unsubscribe[] = [];
    for (const symbol of subscription.symbols) {
      releases.push(trades ? this.#join(this.#tradeTopics, symbol, subscription, true) : this.#join(this.#bookTopics, symbol, subscription, false));
    }
    subscription.release = () => {
      for (const release of releases) release();
    };
    const replies = await Promise.all(
      subscription.symbols.map((symbol) =>
        this.bus.requestSnapshot(RECORDED_VENUE, symbol).catch((error: unknown) => {
          log.warn("live snapshot request failed", errorFields(error));
          return undefined;
        }),
      ),
    );
    if (replies.some((reply) => reply === undefined)) {
      subscription.release();
      subscription.release = () => undefined;
      return false;
    }
    if (!subscription.session.subscriptions.has(subscription.key)) return true;
    subscription.session.outbox.push(subscribedFrame(subscription.id));
    if (!trades) {
      for (const reply of replies) if (reply?.book) this.#deliverBook(subscription, new EncodedBook(reply.book));
    }
    return true;
  }

  #join(
    topics: Map<string, { subscriptions: Set<Subscription>; unsubscribe: Unsubscribe }>,
    symbol: string,
    subscription: Subscription,
    trades: boolean,
  ): Unsubscribe {
    let topic = topics.get(symbol);
    if (topic === undefined) {
      const unsubscribe = trades
        ? this.bus.subscribeTrades(RECORDED_VENUE, symbol, (message) => this.#onTrade(message))
        : this.bus.subscribeBooks(RECORDED_VENUE, symbol, (message) => this.#onBook(message, false));
      topic = { subscriptions: new Set(), unsubscribe };
      topics.set(symbol, topic);
    }
    const joined = topic;
    joined.subscriptions.add(subscription);
    return () => {
      joined.subscriptions.delete(subscription);
      if (joined.subscriptions.size === 0 && topics.get(symbol) === joined) {
        topics.delete(symbol);
        joined.unsubscribe();
      }
    };
  }

  /**
   * Coalescing at ingest: updates of one book that arrive in the same turn of the event loop (a
   * burst, a batch of NATS messages read at once) are fanned out once, the latest; an instance's
   * work per turn is then bounded by books x subscribers, not updates x subscribers.
   */
  #onBook(message: BookMessage, firehose: boolean): void {
    this.counters.booksIn += 1;
    const key = `${message.venue}\u0000${message.assetId}`;
    const waiting = this.#incoming.get(key);
    if (waiting === undefined) {
      this.#incoming.set(key, { message, topic: !firehose, firehose });
    } else {
      if (waiting.message.epoch !== message.epoch || message.seq >= waiting.message.seq) waiting.message = message;
      if (firehose) waiting.firehose = true;
      else waiting.topic = true;
    }
    if (this.#drainScheduled) return;
    this.#drainScheduled = true;
    setImmediate(() => this.#drainIncoming());
  }

  #drainIncoming(): void {
    this.#drainScheduled = false;
    const entries = [...this.#incoming.values()];
    this.#incoming.clear();
    for (const { message, topic, firehose } of entries) {
      const encoded = new EncodedBook(message);
      if (firehose) {
        for (const subscription of this.#firehose) {
          if (subscription.venues !== undefined && !subscription.venues.has(message.venue)) continue;
          this.#deliverFirehose(subscription, encoded);
        }
      }
      const books = topic && message.venue === RECORDED_VENUE ? this.#bookTopics.get(message.assetId) : undefined;
      if (books !== undefined) for (const subscription of books.subscriptions) this.#deliverBook(subscription, encoded);
    }
  }

  #onTrade(message: TradeMessage): void {
    this.counters.tradesIn += 1;
    const topic = this.#tradeTopics.get(message.assetId);
    if (topic === undefined) return;
    const data = tradeData(message);
    const symbolJson = JSON.stringify(message.assetId);
    for (const subscription of topic.subscriptions) {
      subscription.session.outbox.push(dataFrame(subscription.idJson, subscription.methodJson, symbolJson, data));
      subscription.session.delivered();
      this.counters.messagesOut += 1;
    }
  }

  #deliverBook(subscription: Subscription, encoded: EncodedBook): void {
    const message = encoded.message;
    if (!newer(subscription.last.get(message.assetId), message)) return;
    subscription.last.set(message.assetId, { epoch: message.epoch, seq: message.seq });
    subscription.session.outbox.pushBook(
      `${subscription.idJson}\u0000${message.assetId}`,
      dataFrame(subscription.idJson, subscription.methodJson, encoded.symbolJson, encoded.data(subscription.limit)),
    );
    subscription.session.delivered();
    this.counters.messagesOut += 1;
  }

  #deliverFirehose(subscription: Subscription, encoded: EncodedBook): void {
    subscription.session.outbox.pushBook(
      `${subscription.idJson}\u0000${encoded.message.venue}\u0000${encoded.message.assetId}`,
      dataFrame(subscription.idJson, subscription.methodJson, encoded.symbolJson, encoded.firehose()),
    );
    subscription.session.delivered();
    this.counters.messagesOut += 1;
  }

  #attachWatcher(subscription: Subscription, spec: { exchange: string; method: string; args: unknown[]; credentials: Record<string, unknown> | undefined }): void {
    const { session } = subscription;
    const books = spec.method.includes("OrderBook");
    session.outbox.push(subscribedFrame(subscription.id));
    subscription.release = this.watchers.acquire(
      { owner: ownerOf(session.principal), ...spec },
      {
        data: (symbol, payload) => {
          const frame = dataFrame(subscription.idJson, subscription.methodJson, JSON.stringify(symbol), JSON.stringify(payload ?? null));
          if (books) session.outbox.pushBook(`${subscription.idJson}\u0000${symbol}`, frame);
          else session.outbox.push(frame);
          session.delivered();
          this.counters.messagesOut += 1;
        },
        failed: (error) => {
          const answer = toStreamError(error);
          // Ended after the watcher's own callback returns, as before: it may be iterating its listeners.
          queueMicrotask(() => {
            session.outbox.push(errorFrame(subscription.id, answer));
            this.#end(subscription);
          });
        },
      },
    );
  }
}

class StreamProtocolError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

function streamError(code: string, message: string): StreamProtocolError {
  return new StreamProtocolError(code, message);
}

export function isStreamProtocolError(error: unknown): error is StreamProtocolError {
  return error instanceof StreamProtocolError;
}

function parseVenues(args: unknown[]): Set<string> | undefined {
  if (args.length === 0 || args[0] === undefined || args[0] === null) return undefined;
  const venues = args[0];
  if (args.length > 1 || !Array.isArray(venues) || venues.some((venue) => typeof venue !== "string" || !isExchangeKey(venue.toLowerCase()))) {
    throw streamError("VALIDATION_ERROR", "firehose takes one optional argument: a list of exchange names, e.g. [[\"polymarket\"]].");
  }
  return new Set(venues.map((venue) => String(venue).toLowerCase()));
}

function symbolsOf(method: string, args: unknown[]): string[] {
  const first = args[0];
  if (method === "watchOrderBooks") {
    if (!Array.isArray(first) || first.length === 0 || first.some((id) => typeof id !== "string" || id === "")) {
      throw streamError("VALIDATION_ERROR", "watchOrderBooks takes a non-empty list of outcome ids as its first argument.");
    }
    return [...new Set(first as string[])];
  }
  return typeof first === "string" && first !== "" ? [first] : [];
}

function bookLimit(method: string, args: unknown[]): number | undefined {
  if (method !== "watchOrderBook" && method !== "watchOrderBooks") return undefined;
  const limit = args[1];
  return typeof limit === "number" && Number.isInteger(limit) && limit > 0 ? limit : undefined;
}
