import "server-only";
import { lt, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { rateLimits } from "@/lib/db/schema";

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

export async function consumeRateLimit(
  store: RateLimitStore,
  bucket: string,
  limit: number,
  now: number = Date.now(),
): Promise<RateLimitDecision> {
  const count = await store.increment(bucket, new Date(windowOf(now).windowStart));
  return decide(count, limit, now);
}

export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    "x-ratelimit-limit": String(decision.limit),
    "x-ratelimit-remaining": String(decision.remaining),
    "x-ratelimit-reset": String(decision.resetAt),
  };
}
