import "server-only";
import { ExchangeNotAvailable } from "pmxt-core/dist/errors";
import { config } from "@/lib/config";
import { errorFields, log } from "@/lib/log";
import { passthroughPool } from "@/lib/passthrough";
import { toVenueError } from "@/lib/passthrough/errors";
import { callerScope, scopeKey, type InstanceScope } from "@/lib/passthrough/instances";
import type { Exchange } from "@/lib/venues/factory";

/** What a venue watcher hands its listeners: one payload per symbol (watchOrderBooks gives several). */
export interface WatcherListener {
  data(symbol: string, payload: unknown): void;
  /** The watcher stopped on a venue error; the listener's subscription is over. */
  failed(error: unknown): void;
}

export interface WatcherSpec {
  owner: string;
  exchange: string;
  method: string;
  args: unknown[];
  credentials: Record<string, unknown> | undefined;
}

/**
 * Stream watchers run on the key's own pmxt-core instance, apart from its HTTP long-polls (the
 * `#stream` owner), so closing one never cuts the other; the scope rule is the pass-through's.
 */
function scopeOf(spec: WatcherSpec): InstanceScope {
  return callerScope(spec.exchange, `${spec.owner}#stream`, spec.credentials, true);
}

class VenueWatcher {
  readonly key: string;
  readonly scope: InstanceScope;
  readonly listeners = new Set<WatcherListener>();
  readonly #spec: WatcherSpec;
  #stopped = false;

  constructor(key: string, spec: WatcherSpec) {
    this.key = key;
    this.#spec = spec;
    this.scope = scopeOf(spec);
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  /** pmxt's sidecar loop: call the watch method again as soon as it answers, until stopped. */
  async run(onEnd: () => void): Promise<void> {
    const { exchange: venue, method, args } = this.#spec;
    try {
      if (config.venueRedirectUrl !== undefined && venue !== "mock") {
        // Once acquire() has added the listener that is told.
        await Promise.resolve();
        throw offlineStream(venue, method);
      }
      while (!this.#stopped) {
        const result = await passthroughPool().with(this.scope, (exchange) => call(exchange, method, args));
        if (this.#stopped) break;
        if (method === "watchOrderBooks" && result !== null && typeof result === "object" && !Array.isArray(result)) {
          for (const [symbol, payload] of Object.entries(result)) for (const listener of this.listeners) listener.data(symbol, payload);
        } else {
          const symbol = typeof args[0] === "string" ? args[0] : JSON.stringify(args[0] ?? "");
          for (const listener of this.listeners) listener.data(symbol, result);
        }
      }
    } catch (error) {
      if (!this.#stopped) {
        const mapped = toVenueError(error, venue);
        for (const listener of [...this.listeners]) listener.failed(mapped);
      }
    } finally {
      this.#stopped = true;
      onEnd();
    }
  }

  stop(): void {
    this.#stopped = true;
  }
}

/**
 * Offline mode (VENUE_REDIRECT_URL: tests, an offline demo) redirects every venue HTTP call and the
 * recorders' channels, but not pmxt-core's own websockets (Polymarket's URL is a constant of the
 * library it uses): a watch there would dial the venue. It fails at once instead, saying why.
 */
function offlineStream(venue: string, method: string): Error {
  return new ExchangeNotAvailable(
    `${venue}'s ${method} goes through pmxt-core's own websocket, which this server's offline mode (VENUE_REDIRECT_URL) does not redirect, so it is not opened. Recorded books: GET /v0/orderbooks/{outcomeId}.`,
    venue,
  );
}

function call(exchange: Exchange, method: string, args: unknown[]): Promise<unknown> {
  const fn = (exchange as unknown as Record<string, unknown>)[method];
  if (typeof fn !== "function") return Promise.reject(new Error(`Method '${method}' is not supported.`));
  return Promise.resolve((fn as (...a: unknown[]) => unknown).apply(exchange, args));
}

/**
 * Per-key pmxt-core watchers for what the recorder does not record (other venues, other assets,
 * watchAddress, calls with venue credentials): one watcher per (key, venue, method, args) shared
 * by that key's subscriptions, released when its last subscriber leaves; the key's stream instance
 * is closed (its venue sockets with it) when its last watcher ends.
 */
export class VenueWatchers {
  readonly #watchers = new Map<string, VenueWatcher>();

  get size(): number {
    return this.#watchers.size;
  }

  /** Adds `listener` to the watcher of `spec`, starting it if needed; returns the release function. */
  acquire(spec: WatcherSpec, listener: WatcherListener): () => void {
    const scope = scopeOf(spec);
    const key = `${scopeKey(scope)}|${spec.method}|${JSON.stringify(spec.args)}`;
    let watcher = this.#watchers.get(key);
    if (watcher === undefined || watcher.stopped) {
      const created = new VenueWatcher(key, spec);
      watcher = created;
      this.#watchers.set(key, created);
      void created.run(() => this.#ended(created));
    }
    const active = watcher;
    active.listeners.add(listener);
    return () => {
      active.listeners.delete(listener);
      if (active.listeners.size === 0) this.#release(active);
    };
  }

  /** Watchers of one instance scope still running (tests, status). */
  activeFor(owner: string): number {
    let count = 0;
    for (const watcher of this.#watchers.values()) if (!watcher.stopped && watcher.key.includes(`:${owner}#stream`)) count += 1;
    return count;
  }

  #release(watcher: VenueWatcher): void {
    watcher.stop();
    if (this.#watchers.get(watcher.key) === watcher) this.#watchers.delete(watcher.key);
    this.#dropScopeIfIdle(watcher.scope);
  }

  #ended(watcher: VenueWatcher): void {
    if (this.#watchers.get(watcher.key) === watcher) this.#watchers.delete(watcher.key);
    this.#dropScopeIfIdle(watcher.scope);
  }

  /** Closes the key's stream instance once none of its watchers runs: its venue sockets go with it. */
  #dropScopeIfIdle(scope: InstanceScope): void {
    const id = scopeKey(scope);
    for (const watcher of this.#watchers.values()) if (scopeKey(watcher.scope) === id && !watcher.stopped) return;
    passthroughPool()
      .drop(scope)
      .catch((error: unknown) => log.warn("closing a stream watcher instance failed", errorFields(error)));
  }
}
