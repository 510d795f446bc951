import "server-only";
import { createHash } from "node:crypto";
import { createExchange, type CreateExchangeOptions, type Exchange } from "@/lib/venues/factory";
import { errorFields, log } from "@/lib/log";

/**
 * Who owns an exchange instance. Credential-less reads share one warm instance per venue; every
 * instance that holds per-caller state is keyed by the caller:
 * - `mock`: the mock venue's account (orders, positions, balance) belongs to the API key;
 * - `credentials`: the caller's venue credentials, never reused across keys (the map key holds
 *   a hash of them, never the values);
 * - `watch`: websocket subscriptions of watch* / unwatch*, so one caller's unwatch or close
 *   never stops another's stream.
 */
export type InstanceScope =
  | { kind: "shared"; venue: string }
  | { kind: "mock"; owner: string }
  | { kind: "credentials"; venue: string; owner: string; credentials: Record<string, unknown> }
  | { kind: "watch"; venue: string; owner: string };

interface Entry {
  exchange: Exchange;
  lastUsed: number;
  inFlight: number;
  idleMs: number;
}

const sharedTtlMs = Number.POSITIVE_INFINITY;
const privateIdleMs = 10 * 60_000;
/** A watch instance closes soon after its last long-poll: a client that went away leaks nothing for long. */
const watchIdleMs = 60_000;
const maxPrivateInstances = 5_000;

function hasCredentials(credentials: Record<string, unknown> | undefined): credentials is Record<string, unknown> {
  return credentials !== undefined && Object.values(credentials).some((value) => typeof value === "string" && value !== "");
}

/**
 * The scope a caller's call runs in, the one rule the pass-through and the stream watchers share:
 * the mock venue per owner, venue credentials per owner and credentials, a stream (`watch*`) per
 * owner and venue, anything else on the venue's shared instance.
 */
export function callerScope(venue: string, owner: string, credentials: Record<string, unknown> | undefined, streaming: boolean): InstanceScope {
  if (venue === "mock") return { kind: "mock", owner };
  if (hasCredentials(credentials)) return { kind: "credentials", venue, owner, credentials };
  if (streaming) return { kind: "watch", venue, owner };
  return { kind: "shared", venue };
}

function hashCredentials(credentials: Record<string, unknown>): string {
  const canonical = JSON.stringify(Object.keys(credentials).sort().map((key) => [key, credentials[key]]));
  return createHash("sha256").update(canonical).digest("base64url");
}

export function scopeKey(scope: InstanceScope): string {
  switch (scope.kind) {
    case "shared":
      return `shared:${scope.venue}`;
    case "mock":
      return `mock:${scope.owner}`;
    case "credentials":
      return `cred:${scope.owner}:${scope.venue}:${hashCredentials(scope.credentials)}`;
    case "watch":
      return `watch:${scope.owner}:${scope.venue}`;
  }
}

/** In-process pool of pmxt-core instances (a cache: any web instance can rebuild what it lacks). */
export class InstancePool {
  private readonly entries = new Map<string, Entry>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly create: (venue: string, options: CreateExchangeOptions) => Exchange = createExchange) {}

  /** Runs `run` with the scope's instance, creating it on first use; counts it busy meanwhile. */
  async with<T>(scope: InstanceScope, run: (exchange: Exchange) => Promise<T>): Promise<T> {
    const key = scopeKey(scope);
    let entry = this.entries.get(key);
    if (entry === undefined) {
      const venue = scope.kind === "mock" ? "mock" : scope.venue;
      const exchange = this.create(venue, scope.kind === "credentials" ? { credentials: scope.credentials } : {});
      const idleMs = scope.kind === "shared" ? sharedTtlMs : scope.kind === "watch" ? watchIdleMs : privateIdleMs;
      entry = { exchange, lastUsed: Date.now(), inFlight: 0, idleMs };
      this.entries.set(key, entry);
      this.evictOverflow();
      this.startSweeper();
    }
    entry.inFlight += 1;
    entry.lastUsed = Date.now();
    try {
      return await run(entry.exchange);
    } finally {
      entry.inFlight -= 1;
      entry.lastUsed = Date.now();
    }
  }

  /** Runs `run` on a throwaway instance (never pooled: the router with a caller's key, a forced reload), closed afterwards. */
  async once<T>(venue: string, options: CreateExchangeOptions, run: (exchange: Exchange) => Promise<T>): Promise<T> {
    const exchange = this.create(venue, options);
    try {
      return await run(exchange);
    } finally {
      await closeQuietly(exchange);
    }
  }

  has(scope: InstanceScope): boolean {
    return this.entries.has(scopeKey(scope));
  }

  /** Closes and forgets one private instance (a caller's `close`). Shared instances are never closed this way. */
  async drop(scope: InstanceScope): Promise<void> {
    if (scope.kind === "shared") return;
    const key = scopeKey(scope);
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    await closeQuietly(entry.exchange);
  }

  /** Closes instances idle past their TTL (and their websockets with them). */
  async sweep(now = Date.now()): Promise<number> {
    const stale = [...this.entries].filter(([, e]) => e.inFlight === 0 && now - e.lastUsed > e.idleMs);
    for (const [key] of stale) this.entries.delete(key);
    await Promise.all(stale.map(([, e]) => closeQuietly(e.exchange)));
    return stale.length;
  }

  size(): number {
    return this.entries.size;
  }

  async closeAll(): Promise<void> {
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
    this.sweeper = undefined;
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map((e) => closeQuietly(e.exchange)));
  }

  private evictOverflow(): void {
    if (this.entries.size <= maxPrivateInstances) return;
    const idle = [...this.entries].filter(([key, e]) => !key.startsWith("shared:") && e.inFlight === 0);
    idle.sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    for (const [key, entry] of idle.slice(0, this.entries.size - maxPrivateInstances)) {
      this.entries.delete(key);
      void closeQuietly(entry.exchange);
    }
  }

  private startSweeper(): void {
    if (this.sweeper !== undefined) return;
    this.sweeper = setInterval(() => void this.sweep(), 15_000);
    this.sweeper.unref();
  }
}

async function closeQuietly(exchange: Exchange): Promise<void> {
  try {
    await exchange.close();
  } catch (error) {
    log.warn("closing a venue instance failed", errorFields(error));
  }
}
