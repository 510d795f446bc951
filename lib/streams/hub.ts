import "server-only";
import { config } from "@/lib/config";
import { NotFoundError } from "@/lib/errors";
import { MemoryKeyLimits, type KeyLimits } from "@/lib/limits/key-limits";
import { errorFields, log } from "@/lib/log";
import { prepareCall } from "@/lib/passthrough/dispatch";
import { isRecordedVenue } from "@/lib/recorder/registry";
import { findMethod, isExchangeKey } from "@/lib/venues/registry";
import { ownerOf, StreamAccounting, StreamProtocolError, type StreamPrincipal, type StreamQuotas } from "./accounting";
import type { BookMessage, LiveBus, SnapshotReply, TradeMessage, Unsubscribe } from "@/lib/live/bus";
import { getDb } from "@/lib/db";
import { LiveSpread } from "@/lib/spreads/live";
import { resolvePricedPair } from "@/lib/spreads/service";
import { SharedBody, tradeData } from "./encode";
import { BookFanout } from "./fanout";
import type { FirehoseFeed, TopicFeed } from "./feeds";
import { TickScheduler, type OutboxLimits, type Transport } from "./outbox";
import { dataMessage, errorFrame, subscribedFrame, type ClientMessage, type RequestId } from "./protocol";
import { sampleEveryMinute, type StreamUsageSample } from "./usage-meter";
import { VenueWatchers } from "./venue-watchers";
import { parseResolutionArgs, RESOLUTION_METHOD, ResolutionFeeds } from "./resolutions";
import { bookLimit, LIVE_METHODS, parseSpreadArgs, parseVenues, SPREAD_METHOD, symbolsOf, topicKey, UNWATCH } from "./args";
import { StreamSession, toStreamError, type AdmittedConnection, type SessionHost, type Subscription } from "./session";

export type { StreamPrincipal } from "./accounting";
export type { StreamUsageSample } from "./usage-meter";
export { StreamSession, type AdmittedConnection } from "./session";

export interface HubLimits extends OutboxLimits, StreamQuotas {
  /** Longest a subscriber waits between writes (every update since its last goes out together); 0: every turn of the event loop. */
  tickMs?: number;
}

export function configuredLimits(): HubLimits {
  const s = config.streams;
  return {
    subscriptions: s.subscriptions,
    connectionsPerKey: s.connectionsPerKey,
    bufferBytes: s.bufferBytes,
    maxPending: s.maxPending,
    slowConsumerMs: s.slowConsumerMs,
    tickMs: s.tickMs,
  };
}

export interface StreamHubOptions {
  bus: LiveBus;
  limits?: HubLimits;
  /** Where per-key limits are counted (default: in this process). */
  keyLimits?: KeyLimits;
  /** Where usage samples go (the stream usage store). */
  onUsage?: (sample: StreamUsageSample) => void;
}

/**
 * The process's stream service: sessions and their subscriptions, one bus subscription per topic
 * (and one for the firehose) however many clients share it. The jobs are apart: per-key limits
 * (./accounting.ts), book fan-out (./fanout.ts, ./firehose.ts), writes once per tick (./outbox.ts),
 * usage (./usage-meter.ts), per-key venue watchers for what the recorder does not record.
 */
export class StreamHub implements SessionHost {
  readonly bus: LiveBus;
  readonly limits: HubLimits;
  readonly accounting: StreamAccounting;
  readonly watchers = new VenueWatchers();
  readonly sessions = new Set<StreamSession>();
  readonly fanout: BookFanout;
  /** The venues' outcome changes (`watchResolutions`). */
  readonly resolutions: ResolutionFeeds;
  readonly #ticks: TickScheduler;
  readonly #onUsage: ((sample: StreamUsageSample) => void) | undefined;
  readonly #stopSampling: () => void;
  readonly #bookTopics = new Map<string, { count: number; unsubscribe: Unsubscribe }>();
  readonly #tradeTopics = new Map<string, { subscriptions: Set<Subscription>; unsubscribe: Unsubscribe }>();
  /** Snapshot requests in flight, per asset. */
  readonly #snapshots = new Map<string, Promise<SnapshotReply | undefined>>();
  #firehoseCount = 0;
  #firehoseUnsubscribe: Unsubscribe | undefined;
  #firehoseReady: Promise<void> = Promise.resolve();
  /** Book updates received from the bus, trades received, and data messages written to clients. */
  readonly counters = { booksIn: 0, tradesIn: 0, messagesOut: 0 };

  constructor(options: StreamHubOptions) {
    this.bus = options.bus;
    this.limits = options.limits ?? configuredLimits();
    this.accounting = new StreamAccounting(options.keyLimits ?? new MemoryKeyLimits(), this.limits);
    this.#ticks = new TickScheduler(this.limits.tickMs ?? config.streams.tickMs, () => this.fanout.advance());
    this.fanout = new BookFanout(() => this.#ticks.schedule());
    this.resolutions = new ResolutionFeeds(this.bus);
    this.#onUsage = options.onUsage;
    this.#stopSampling = this.#onUsage === undefined ? () => undefined : sampleEveryMinute(() => this.#sampleAll());
  }

  /** Takes one of the key's stream connections (on every instance), or throws the 429 to answer. */
  async admitConnection(principal: StreamPrincipal): Promise<AdmittedConnection> {
    return { principal, lease: await this.accounting.admitConnection(principal) };
  }

  /** Opens a session on a transport, for a connection admitted by admitConnection. */
  open(connection: AdmittedConnection, surface: "ws" | "sse", transport: Transport): StreamSession {
    const session = new StreamSession(this, connection, surface, transport, this.limits, this.#ticks.mark);
    this.sessions.add(session);
    return session;
  }

  async subscribe(session: StreamSession, message: ClientMessage): Promise<void> {
    const { exchange, method, args } = message;
    const key = `${exchange}:${method}:${JSON.stringify(args)}`;
    this.#assertNew(session, key, message.id);
    if (method === SPREAD_METHOD) {
      await this.#subscribeSpread(session, message, key, parseSpreadArgs(args));
      return;
    }
    if (method === "firehose") {
      await this.#subscribeFirehose(session, message, key, parseVenues(args));
      return;
    }
    if (method === RESOLUTION_METHOD) {
      await this.#subscribeResolutions(session, message, key, parseResolutionArgs(args));
      return;
    }
    if (!method.startsWith("watch")) {
      if (findMethod(method) !== undefined && isExchangeKey(exchange)) {
        throw new StreamProtocolError("BAD_REQUEST", `Method '${method}' is not a streaming method. Use the HTTP API for non-streaming calls.`);
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
    const subscription = await this.#subscription(session, message, key, symbols, Math.max(1, symbols.length));
    if (subscription === undefined) return;
    // `mock` too: pmxt's offline mock venue has no watchOrderBook; its books are live when the demo's
    // synthetic venues publish them on the bus (lib/demo/live.ts), and a subscription falls back to the watcher otherwise.
    const live =
      (isRecordedVenue(exchange) || exchange === "mock") &&
      LIVE_METHODS.has(method) &&
      prepared.credentials === undefined &&
      !(method === "watchTrades" && prepared.args[1] !== undefined) &&
      (await this.#attachLive(subscription, exchange, bookLimit(method, prepared.args)));
    if (session.closed || !session.subscriptions.has(subscription.key)) return;
    if (!live) this.#attachWatcher(subscription, { exchange, method, args: prepared.args, credentials: prepared.credentials });
  }

  async unsubscribe(session: StreamSession, message: ClientMessage): Promise<void> {
    const method = UNWATCH[message.method] ?? message.method;
    const key = `${message.exchange}:${method}:${JSON.stringify(message.args)}`;
    let found: Subscription | undefined = session.subscriptions.get(key);
    if (found === undefined) {
      for (const subscription of session.subscriptions.values()) if (subscription.id === message.id) found = subscription;
    }
    if (found === undefined) throw new StreamProtocolError("NOT_SUBSCRIBED", `No active subscription for ${key}.`);
    // Acknowledged once every instance sees the subscriptions free.
    await this.#end(found);
    session.outbox.push(subscribedFrame(message.id));
  }

  /** A session closed: every subscription released, its usage sampled. */
  detach(session: StreamSession): void {
    if (!this.sessions.delete(session)) return;
    for (const subscription of [...session.subscriptions.values()]) void this.#end(subscription);
    this.#onUsage?.(session.usage.sample([]));
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
    this.#stopSampling();
    for (const session of [...this.sessions]) session.outbox.close(1001, "server shutting down");
    for (const session of [...this.sessions]) this.detach(session);
    this.#ticks.stop();
  }

  #sampleAll(): void {
    for (const session of this.sessions) this.#onUsage?.(session.usage.sample(session.subscriptions.values()));
  }

  #assertNew(session: StreamSession, key: string, id: RequestId): void {
    for (const existing of session.subscriptions.values()) {
      if (existing.key === key) throw new StreamProtocolError("ALREADY_SUBSCRIBED", `Already subscribed to ${key}.`);
      if (existing.id === id) throw new StreamProtocolError("ALREADY_SUBSCRIBED", `Request id ${JSON.stringify(id)} is already in use on this connection.`);
    }
  }

  /** Takes the key's subscriptions and registers the subscription; undefined when the session closed meanwhile. */
  async #subscription(session: StreamSession, message: ClientMessage, key: string, symbols: string[], weight: number): Promise<Subscription | undefined> {
    const lease = await this.accounting.reserveSubscriptions(session.principal, weight);
    if (session.closed) {
      void lease.release();
      return undefined;
    }
    try {
      // Another request of this connection may have taken the key or id while the lease was taken.
      this.#assertNew(session, key, message.id);
    } catch (error) {
      void lease.release();
      throw error;
    }
    const subscription: Subscription = {
      session,
      id: message.id,
      idJson: JSON.stringify(message.id),
      method: message.method,
      methodJson: JSON.stringify(message.method),
      key,
      symbols,
      weight,
      since: Date.now(),
      seq: 0,
      lease,
      release: () => undefined,
    };
    session.subscriptions.set(key, subscription);
    return subscription;
  }

  /** Ends a subscription; `endEmpty` false leaves an emptied one-shot session open (a refusal's error event is still to be sent: the session ends after it). */
  async #end(subscription: Subscription, endEmpty = true): Promise<void> {
    const { session } = subscription;
    if (session.subscriptions.get(subscription.key) !== subscription) return;
    session.subscriptions.delete(subscription.key);
    session.usage.ended(subscription);
    subscription.release();
    if (endEmpty && session.endWhenEmpty && session.subscriptions.size === 0 && !session.closed) session.outbox.end(1000, "no subscription left");
    await subscription.lease.release();
  }

  async #subscribeFirehose(session: StreamSession, message: ClientMessage, key: string, venues: Set<string> | undefined): Promise<void> {
    const subscription = await this.#subscription(session, message, key, [], 1);
    if (subscription === undefined) return;
    const feed: FirehoseFeed = {
      kind: "firehose",
      idJson: subscription.idJson,
      methodJson: subscription.methodJson,
      venues,
      seq: 0,
      cursor: 0,
      counted: 0,
      notify: () => session.due(feed),
    };
    this.#firehoseCount += 1;
    if (this.#firehoseUnsubscribe === undefined) {
      this.#firehoseUnsubscribe = this.bus.subscribeBooks(undefined, undefined, (book) => this.#onBook(book));
      this.#firehoseReady = this.bus.ready().catch((error: unknown) => log.warn("firehose subscription not confirmed", errorFields(error)));
    }
    subscription.release = () => {
      this.fanout.removeFirehose(feed);
      session.forget(feed);
      this.#firehoseCount -= 1;
      if (this.#firehoseCount === 0) {
        this.#firehoseUnsubscribe?.();
        this.#firehoseUnsubscribe = undefined;
      }
    };
    // "subscribed" promises every update after it: answer once the bus subscription is in effect.
    await this.#firehoseReady;
    if (!session.subscriptions.has(key)) return;
    this.fanout.addFirehose(feed);
    session.outbox.push(subscribedFrame(message.id));
  }

  /**
   * A venue's outcome changes (./resolutions.ts): every market's (counts one of the key's
   * subscriptions) or those of the listed markets (one per market), from whichever instance's
   * outcome sink recorded them.
   */
  async #subscribeResolutions(session: StreamSession, message: ClientMessage, key: string, ids: Set<string> | undefined): Promise<void> {
    if (!isExchangeKey(message.exchange)) throw new NotFoundError("exchange", message.exchange);
    const subscription = await this.#subscription(session, message, key, ids === undefined ? [] : [...ids], ids === undefined ? 1 : ids.size);
    if (subscription === undefined) return;
    // Ended while the bus subscription was being confirmed: released as soon as it is.
    const state: { ended: boolean; release?: Unsubscribe } = { ended: false };
    subscription.release = () => {
      state.ended = true;
      state.release?.();
    };
    const followed = await this.resolutions.follow(message.exchange, subscription, ids);
    state.release = followed.release;
    if (state.ended || !session.subscriptions.has(key)) {
      followed.release();
      return;
    }
    session.outbox.push(subscribedFrame(message.id));
    followed.activate();
  }

  /**
   * A pair's spread from both recorders' live books (docs/spreads.md, "Live"): both bus topics
   * first, then each side's current book; every change of either book is priced by the same
   * function as the recorded series and sent as the subscription's latest value (a slow client
   * gets the newest spread, never a backlog). Counts two of the key's subscriptions (two books).
   */
  async #subscribeSpread(session: StreamSession, message: ClientMessage, key: string, args: { a: string; b: string; size: number }): Promise<void> {
    const pair = await resolvePricedPair(await getDb(), args.a, args.b, undefined, Date.now());
    const spread = new LiveSpread(pair, args.size);
    const sides = spread.sides();
    const subscription = await this.#subscription(session, message, key, sides.map((side) => side.assetId), sides.length);
    if (subscription === undefined) return;
    const symbolJson = JSON.stringify(`${pair.a.outcomeId}|${pair.b.outcomeId}`);
    const onBook = (book: BookMessage) => {
      const point = spread.update(book);
      if (point === undefined || !session.subscriptions.has(key)) return;
      subscription.seq += 1;
      session.outbox.pushBook(`${subscription.idJson}\u0000spread`, dataMessage(subscription.idJson, subscription.methodJson, symbolJson, subscription.seq, new SharedBody(JSON.stringify(point))));
      session.delivered(1);
    };
    const releases = sides.map(({ venue, assetId }) => this.bus.subscribeBooks(venue, assetId, onBook));
    subscription.release = () => {
      for (const release of releases) release();
    };
    await this.bus.ready();
    const replies = await Promise.all(sides.map(({ venue, assetId }) => this.#snapshot(venue, assetId)));
    if (replies.some((reply) => reply === undefined)) {
      await this.#end(subscription, false);
      throw new StreamProtocolError("NOT_RECORDED", "A side of this pair is not being recorded live by any recorder: its spread cannot be streamed (GET /v0/pairs/{a}/{b}/spreads serves what was recorded).");
    }
    if (!session.subscriptions.has(key)) return;
    session.outbox.push(subscribedFrame(message.id));
    for (const reply of replies) if (reply?.book) onBook(reply.book);
  }

  /**
   * Serves a subscription from the recorder's live books: bus topics first (so no update falls
   * between), then the current book of each symbol from the recorder. False when an asset is not recorded.
   */
  async #attachLive(subscription: Subscription, venue: string, limit: number | undefined): Promise<boolean> {
    const trades = subscription.method === "watchTrades";
    const { session } = subscription;
    const releases: Unsubscribe[] = [];
    for (const symbol of subscription.symbols) releases.push(trades ? this.#joinTrades(venue, symbol, subscription) : this.#joinBooks(venue, symbol));
    const feed: TopicFeed | undefined = trades
      ? undefined
      : {
          kind: "topic",
          venue,
          idJson: subscription.idJson,
          methodJson: subscription.methodJson,
          symbols: subscription.symbols,
          limit,
          written: new Map(),
          seq: 0,
          active: false,
          notify: () => session.due(feed as TopicFeed),
        };
    // Registered before the snapshot request, so an update that arrives meanwhile is kept.
    if (feed !== undefined) this.fanout.addTopic(feed);
    subscription.release = () => {
      if (feed !== undefined) {
        this.fanout.removeTopic(feed);
        session.forget(feed);
      }
      for (const release of releases) release();
    };
    const replies = await Promise.all(subscription.symbols.map((symbol) => this.#snapshot(venue, symbol)));
    if (replies.some((reply) => reply === undefined)) {
      subscription.release();
      subscription.release = () => undefined;
      return false;
    }
    if (!session.subscriptions.has(subscription.key)) return true;
    session.outbox.push(subscribedFrame(subscription.id));
    if (feed !== undefined) {
      // The recorder's current book: older than one already received, it is dropped.
      for (const reply of replies) if (reply?.book) this.#onBook(reply.book);
      this.fanout.activate(feed);
    }
    return true;
  }

  /**
   * The recorder's current book of an asset, or that it records it. Asked once per asset however
   * many subscribe at once; not asked at all when this instance already has the asset's live book
   * (another subscriber's topic brings its updates): a thousand subscribers of one market cost one
   * request, not a thousand.
   */
  #snapshot(venue: string, symbol: string): Promise<SnapshotReply | undefined> {
    if (this.fanout.hasBook(venue, symbol)) return Promise.resolve({ recorded: true, book: null });
    const key = topicKey(venue, symbol);
    let pending = this.#snapshots.get(key);
    if (pending === undefined) {
      pending = this.bus
        .requestSnapshot(venue, symbol)
        .catch((error: unknown) => {
          log.warn("live snapshot request failed", errorFields(error));
          return undefined;
        })
        .finally(() => this.#snapshots.delete(key));
      this.#snapshots.set(key, pending);
    }
    return pending;
  }

  #onBook(message: Parameters<BookFanout["offer"]>[0]): void {
    this.counters.booksIn += 1;
    this.fanout.offer(message);
  }

  #joinBooks(venue: string, symbol: string): Unsubscribe {
    const key = topicKey(venue, symbol);
    let topic = this.#bookTopics.get(key);
    if (topic === undefined) {
      topic = { count: 0, unsubscribe: this.bus.subscribeBooks(venue, symbol, (message) => this.#onBook(message)) };
      this.#bookTopics.set(key, topic);
    }
    const joined = topic;
    joined.count += 1;
    return () => {
      joined.count -= 1;
      if (joined.count === 0 && this.#bookTopics.get(key) === joined) {
        this.#bookTopics.delete(key);
        joined.unsubscribe();
      }
    };
  }

  #joinTrades(venue: string, symbol: string, subscription: Subscription): Unsubscribe {
    const key = topicKey(venue, symbol);
    let topic = this.#tradeTopics.get(key);
    if (topic === undefined) {
      topic = { subscriptions: new Set(), unsubscribe: this.bus.subscribeTrades(venue, symbol, (message) => this.#onTrade(message)) };
      this.#tradeTopics.set(key, topic);
    }
    const joined = topic;
    joined.subscriptions.add(subscription);
    return () => {
      joined.subscriptions.delete(subscription);
      if (joined.subscriptions.size === 0 && this.#tradeTopics.get(key) === joined) {
        this.#tradeTopics.delete(key);
        joined.unsubscribe();
      }
    };
  }

  /** Trades are never merged: each one is queued to each subscriber, in order. */
  #onTrade(message: TradeMessage): void {
    this.counters.tradesIn += 1;
    const topic = this.#tradeTopics.get(topicKey(message.venue, message.assetId));
    if (topic === undefined) return;
    const body = new SharedBody(tradeData(message));
    const symbolJson = JSON.stringify(message.assetId);
    for (const subscription of topic.subscriptions) {
      subscription.seq += 1;
      subscription.session.outbox.push(dataMessage(subscription.idJson, subscription.methodJson, symbolJson, subscription.seq, body));
      subscription.session.delivered(1);
    }
  }

  #attachWatcher(subscription: Subscription, spec: { exchange: string; method: string; args: unknown[]; credentials: Record<string, unknown> | undefined }): void {
    const { session } = subscription;
    const books = spec.method.includes("OrderBook");
    session.outbox.push(subscribedFrame(subscription.id));
    subscription.release = this.watchers.acquire(
      { owner: ownerOf(session.principal), ...spec },
      {
        data: (symbol, payload) => {
          subscription.seq += 1;
          const message = dataMessage(subscription.idJson, subscription.methodJson, JSON.stringify(symbol), subscription.seq, new SharedBody(JSON.stringify(payload ?? null)));
          // A book that replaces one still waiting leaves a gap in the sequence: the client sees the merge.
          if (books) session.outbox.pushBook(`${subscription.idJson}\u0000${symbol}`, message);
          else session.outbox.push(message);
          session.delivered(1);
        },
        failed: (error) => {
          const answer = toStreamError(error);
          // Ended after the watcher's own callback returns, as before: it may be iterating its listeners.
          queueMicrotask(() => {
            session.outbox.push(errorFrame(subscription.id, answer));
            void this.#end(subscription);
          });
        },
      },
    );
  }
}

export function isStreamProtocolError(error: unknown): error is StreamProtocolError {
  return error instanceof StreamProtocolError;
}

