import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { rateLimitHeaders } from "@/lib/http/respond";
import { consumeRateLimit, postgresRateLimitStore, type RateLimitStore } from "./rate-limit";

function memoryStore(): RateLimitStore {
  const counts = new Map<string, number>();
  return {
    async increment(bucket, windowStart) {
      const key = `${bucket}@${windowStart.getTime()}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return counts.get(key) ?? 0;
    },
    async prune() {},
  };
}

describe("consumeRateLimit", () => {
  it("allows `limit` requests per minute window, then refuses with the time to the window's end", async () => {
    const store = memoryStore();
    const now = Date.UTC(2026, 10, 22, 12, 0, 15); // 15 s into a window
    for (let i = 1; i <= 3; i += 1) {
      const decision = await consumeRateLimit(store, "key:a", 3, now);
      expect(decision).toMatchObject({ allowed: true, remaining: 3 - i, limit: 3 });
    }
    const refused = await consumeRateLimit(store, "key:a", 3, now);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfter: 45, resetAt: Date.UTC(2026, 10, 22, 12, 1, 0) / 1000 });
    expect(rateLimitHeaders(refused)).toEqual({ "x-ratelimit-limit": "3", "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(refused.resetAt) });
    // Next window starts fresh; other buckets are independent.
    expect((await consumeRateLimit(store, "key:a", 3, now + 60_000)).allowed).toBe(true);
    expect((await consumeRateLimit(store, "key:b", 3, now)).allowed).toBe(true);
  });

  it("counts in the database, shared by every caller of the same bucket, and prunes old windows", async () => {
    const db = await getDb();
    const a = postgresRateLimitStore(db);
    const b = postgresRateLimitStore(db); // a second "instance"
    const now = Date.now();
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => consumeRateLimit(i % 2 === 0 ? a : b, "key:shared", 8, now)));
    expect(results.filter((r) => r.allowed)).toHaveLength(8);
    expect(results.map((r) => r.remaining).sort((x, y) => x - y)).toEqual([0, 0, 0, 1, 2, 3, 4, 5, 6, 7]);
    await a.prune(new Date(now + 120_000));
    expect((await consumeRateLimit(a, "key:shared", 8, now)).remaining).toBe(7);
  });
});

describe("embeddedRateLimitStore", () => {
  it("counts exactly in memory, writes behind, and reads a window back after a restart", async () => {
    const { embeddedRateLimitStore, flushRateLimits } = await import("./rate-limit");
    const { rateLimits } = await import("@/lib/db/schema");
    const db = await getDb();
    const store = embeddedRateLimitStore(db);
    const window = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    const counts = await Promise.all(Array.from({ length: 10 }, () => store.increment("key:embedded", window)));
    expect(counts.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const rows = () => db.select().from(rateLimits).where(eq(rateLimits.bucket, "key:embedded"));
    expect(await rows()).toHaveLength(0); // nothing written on the request path
    await flushRateLimits(db);
    expect(await rows()).toMatchObject([{ bucket: "key:embedded", count: 10 }]);
    // A restart forgets the in-memory counters; the window's count comes back from the database.
    (globalThis as { __brierRateLimits?: { counters: Map<string, unknown> } }).__brierRateLimits?.counters.clear();
    expect(await store.increment("key:embedded", window)).toBe(11);
  });
});
