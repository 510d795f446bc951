import "server-only";
import { and, eq, lt, sql } from "drizzle-orm";
import { config } from "@/lib/config";
import type { Db } from "@/lib/db";
import { rateLimits } from "@/lib/db/schema/rate-limits";
import { processGlobals } from "@/lib/process-globals.mjs";

/** The outcome of counting one request against a bucket's fixed one-minute window. */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix time (seconds) at which the current window ends. */
  resetAt: number;
  /** Seconds until the window ends, at least 1. */
  retryAfter: number;
}

/**
 * Where rate-limit counters live. They must be shared by every server instance, so the default
 * store is Postgres; a Redis store would implement the same interface.
 */
export interface RateLimitStore {
  /** Adds one hit to `bucket` in the window starting at `windowStart` and returns the new count. */
  increment(bucket: string, windowStart: Date): Promise<number>;
  /** Drops windows that ended before `before`. */
  prune(before: Date): Promise<void>;
}

export const WINDOW_MS = 60_000;

export function postgresRateLimitStore(db: Db): RateLimitStore {
  return {
    async increment(bucket, windowStart) {
      const [row] = await db
        .insert(rateLimits)
        .values({ bucket, windowStart, count: 1 })
        .onConflictDoUpdate({
          target: [rateLimits.bucket, rateLimits.windowStart],
          set: { count: sql`${rateLimits.count} + 1` },
        })
        .returning({ count: rateLimits.count });
      if (row === undefined) throw new Error("rate limit upsert returned no row");
      return row.count;
    },
    async prune(before) {
      await db.delete(rateLimits).where(lt(rateLimits.windowStart, before));
    },
  };
}

export function windowOf(now: number): { windowStart: number; windowEnd: number } {
  const windowStart = Math.floor(now / WINDOW_MS) * WINDOW_MS;
  return { windowStart, windowEnd: windowStart + WINDOW_MS };
}

/** The decision for the `count`-th request of the window that contains `now`. */
export function decide(count: number, limit: number, now: number): RateLimitDecision {
  const { windowEnd } = windowOf(now);
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetAt: Math.ceil(windowEnd / 1000),
    retryAfter: Math.max(1, Math.ceil((windowEnd - now) / 1000)),
  };
}

interface Counter {
  bucket: string;
  windowStart: Date;
  count: number;
  /** The count last written to the database. */
  persisted: number;
}

interface EmbeddedState {
  counters: Map<string, Counter>;
  loading: Map<string, Promise<Counter>>;
  timer: NodeJS.Timeout | undefined;
}

const globalStore = processGlobals<{ __brierRateLimits?: EmbeddedState }>();
const embedded: EmbeddedState = (globalStore.__brierRateLimits ??= { counters: new Map(), loading: new Map(), timer: undefined });
const FLUSH_MS = 1_000;

/**
 * The embedded setup's store: one process owns the database (the data-dir lock), so it counts in
 * memory, exactly, and writes the counters behind to the same `rate_limits` rows once a second
 * (and on shutdown). A window's count is read back from the database on first use, so a restart
 * inside a window keeps its count. Requests never wait on a write.
 */
export function embeddedRateLimitStore(db: Db): RateLimitStore {
  return {
    async increment(bucket, windowStart) {
      const id = `${bucket}@${windowStart.getTime()}`;
      let counter = embedded.counters.get(id);
      if (counter === undefined) {
        let loading = embedded.loading.get(id);
        if (loading === undefined) {
          loading = loadCounter(db, bucket, windowStart).finally(() => embedded.loading.delete(id));
          embedded.loading.set(id, loading);
        }
        counter = await loading;
      }
      counter.count += 1;
      scheduleCounterFlush(db);
      return counter.count;
    },
    async prune(before) {
      await flushRateLimits(db);
      for (const [id, counter] of embedded.counters) if (counter.windowStart < before) embedded.counters.delete(id);
      await postgresRateLimitStore(db).prune(before);
    },
  };
}

async function loadCounter(db: Db, bucket: string, windowStart: Date): Promise<Counter> {
  const [row] = await db
    .select({ count: rateLimits.count })
    .from(rateLimits)
    .where(and(eq(rateLimits.bucket, bucket), eq(rateLimits.windowStart, windowStart)));
  const counter = { bucket, windowStart, count: row?.count ?? 0, persisted: row?.count ?? 0 };
  embedded.counters.set(`${bucket}@${windowStart.getTime()}`, counter);
  return counter;
}

function scheduleCounterFlush(db: Db): void {
  if (embedded.timer !== undefined) return;
  embedded.timer = setTimeout(() => {
    embedded.timer = undefined;
    void flushRateLimits(db).catch(() => scheduleCounterFlush(db));
  }, FLUSH_MS);
  embedded.timer.unref();
}

/** Writes counters that moved since their last write (embedded store). */
export async function flushRateLimits(db: Db): Promise<void> {
  const dirty = [...embedded.counters.values()].filter((counter) => counter.count > counter.persisted);
  const snapshot = dirty.map((counter) => ({ counter, count: counter.count }));
  if (snapshot.length > 0) await db
    .insert(rateLimits)
    .values(snapshot.map(({ counter, count }) => ({ bucket: counter.bucket, windowStart: counter.windowStart, count })))
    .onConflictDoUpdate({
      target: [rateLimits.bucket, rateLimits.windowStart],
      set: { count: sql`greatest(${rateLimits.count}, excluded.count)` },
    });
  for (const { counter, count } of snapshot) counter.persisted = Math.max(counter.persisted, count);
  // Windows that ended are never counted again: keep memory bounded.
  const current = windowOf(Date.now()).windowStart;
  for (const [id, counter] of embedded.counters) {
    if (counter.windowStart.getTime() < current && counter.count === counter.persisted) embedded.counters.delete(id);
  }
}

/** The store for this deployment: exact in-process counting on the embedded setup, PostgreSQL otherwise. */
export function rateLimitStore(db: Db): RateLimitStore {
  return config.embeddedPostgres ? embeddedRateLimitStore(db) : postgresRateLimitStore(db);
}

export async function consumeRateLimit(
  store: RateLimitStore,
  bucket: string,
  limit: number,
  now: number = Date.now(),
): Promise<RateLimitDecision> {
  const count = await store.increment(bucket, new Date(windowOf(now).windowStart));
  return decide(count, limit, now);
}

/**
 * Hits of one bucket's window taken from the shared counter in advance (PostgreSQL, several
 * instances): `top` is the counter after the lease was added to it, `left` the leased hits not yet
 * served, `known` the highest count this process has seen for the window.
 */
interface Lease {
  windowStart: number;
  top: number;
  left: number;
  known: number;
  pending: Promise<void> | undefined;
}

const leaseStore = processGlobals<{ __brierRateLeases?: WeakMap<Db, Map<string, Lease>> }>();
const leases = (leaseStore.__brierRateLeases ??= new WeakMap());
/** At most this many hits leased at once: one round trip per 64 requests of a busy key. */
export const MAX_LEASE = 64;

/**
 * The size of the next lease: a sixteenth of what is left of the limit by the highest count seen, between 1 and MAX_LEASE. Near the limit every hit is counted by its own round trip, so
 * the limit is reached exactly; far from it a busy key's requests cost one statement per lease.
 */
export function leaseSize(limit: number, known: number): number {
  return Math.max(1, Math.min(MAX_LEASE, Math.floor((limit - known) / 16)));
}

function leaseOf(db: Db, bucket: string, windowStart: number): Lease {
  let byBucket = leases.get(db);
  if (byBucket === undefined) leases.set(db, (byBucket = new Map()));
  const id = `${bucket}@${windowStart}`;
  let lease = byBucket.get(id);
  if (lease === undefined) {
    // A new window: leases of windows that ended are never served again (their unserved hits only
    // ever made that window's shared count higher than what was served).
    for (const [other, old] of byBucket) if (old.windowStart < windowStart && old.pending === undefined) byBucket.delete(other);
    lease = { windowStart, top: 0, left: 0, known: 0, pending: undefined };
    byBucket.set(id, lease);
  }
  return lease;
}

/**
 * A hit counted elsewhere (admission's `brier_admit_key` added one to the shared row and read it
 * back as `count`, when the key's principal was not kept): returns its number in the window and
 * sizes the next lease. While this process still holds leased hits of the window, `count` is past
 * them, so the hit is served the lowest leased number instead and its own place in the row joins
 * the lease: on one instance the numbers stay 1, 2, 3, ... when a key write dropped the kept
 * principals between two hits, and the row is still never below what was served.
 */
export function sharedCountedHit(db: Db, bucket: string, windowStart: number, count: number): number {
  const lease = leaseOf(db, bucket, windowStart);
  lease.known = Math.max(lease.known, count);
  if (lease.left === 0 || count <= lease.top) return count;
  const served = lease.top - lease.left + 1;
  lease.top = count;
  return served;
}

/**
 * Counts one hit in the shared `rate_limits` row of `bucket`'s window without a round trip while this
 * process holds leased hits, and returns its number in the window. Each lease adds its size to the row
 * in one statement, so the row is never below what every instance served: a caller spread over
 * several instances can be refused up to the others' unserved leases early, never admitted past the
 * limit. On one instance the numbers are exactly 1, 2, 3, ... as without leases.
 */
export async function consumeLeasedHit(db: Db, bucket: string, windowStart: number, limit: number): Promise<number> {
  const lease = leaseOf(db, bucket, windowStart);
  for (;;) {
    if (lease.left > 0) {
      lease.left -= 1;
      return lease.top - lease.left;
    }
    lease.pending ??= takeLease(db, bucket, windowStart, lease, leaseSize(limit, lease.known)).finally(() => {
      lease.pending = undefined;
    });
    await lease.pending;
  }
}

async function takeLease(db: Db, bucket: string, windowStart: number, lease: Lease, size: number): Promise<void> {
  const [row] = await db
    .insert(rateLimits)
    .values({ bucket, windowStart: new Date(windowStart), count: size })
    .onConflictDoUpdate({
      target: [rateLimits.bucket, rateLimits.windowStart],
      set: { count: sql`${rateLimits.count} + ${size}` },
    })
    .returning({ count: rateLimits.count });
  if (row === undefined) throw new Error("rate limit lease returned no row");
  lease.top = row.count;
  lease.left = size;
  lease.known = Math.max(lease.known, row.count);
}
