import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { MemoryKeyLimits, PgKeyLimits, type KeyLimits } from "./key-limits";

const opened: KeyLimits[] = [];
afterAll(async () => {
  for (const limits of opened) await limits.close();
});

async function pg(ttlMs = 8_000): Promise<PgKeyLimits> {
  const limits = new PgKeyLimits(await getDb(), { ttlMs });
  opened.push(limits);
  return limits;
}

const suites: Array<[string, () => Promise<KeyLimits>]> = [
  ["in memory", () => Promise.resolve(new MemoryKeyLimits())],
  ["PostgreSQL leases", () => pg()],
];

describe.each(suites)("key limits (%s)", (_name, make) => {
  it("takes up to the limit, refuses past it with what the bucket holds, and frees on release", async () => {
    const limits = await make();
    const bucket = `test:${randomUUID()}`;
    const first = await limits.take(bucket, 3, 5);
    expect(first.taken).toBe(true);
    expect(await limits.take(bucket, 2, 5)).toMatchObject({ taken: true });
    expect(await limits.take(bucket, 1, 5)).toEqual({ taken: false, held: 5 });
    expect(await limits.held(bucket)).toBe(5);
    if (!first.taken) throw new Error("unreachable");
    await first.lease.release();
    await first.lease.release(); // idempotent: gives back 3, not 6
    expect(await limits.held(bucket)).toBe(2);
    expect(await limits.take(bucket, 4, 5)).toEqual({ taken: false, held: 2 });
    expect(await limits.take(bucket, 3, 5)).toMatchObject({ taken: true });
    // Buckets are independent.
    expect(await limits.take(`${bucket}:other`, 5, 5)).toMatchObject({ taken: true });
  });
});

describe("PostgreSQL leases across instances", () => {
  it("two instances share one count: concurrent takes never exceed the limit", async () => {
    const [a, b] = [await pg(), await pg()];
    const bucket = `test:${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? a : b).take(bucket, 1, 5)));
    expect(results.filter((result) => result.taken)).toHaveLength(5);
    expect(await a.held(bucket)).toBe(5);
    expect(await b.held(bucket)).toBe(5);
  });

  it("a release is seen by the other instance's next take", async () => {
    const [a, b] = [await pg(), await pg()];
    const bucket = `test:${randomUUID()}`;
    const taken = await a.take(bucket, 2, 2);
    expect(await b.take(bucket, 1, 2)).toEqual({ taken: false, held: 2 });
    if (!taken.taken) throw new Error("not taken");
    await taken.lease.release();
    expect(await b.take(bucket, 2, 2)).toMatchObject({ taken: true });
  });

  it("a killed instance's leases stop counting once their time to live passes; a live one's are renewed", async () => {
    const ttlMs = 600;
    const [killed, alive] = [await pg(ttlMs), await pg(ttlMs)];
    const bucket = `test:${randomUUID()}`;
    expect(await killed.take(bucket, 3, 5)).toMatchObject({ taken: true });
    expect(await alive.take(bucket, 2, 5)).toMatchObject({ taken: true });
    killed.abandon(); // no renewal, nothing given back: what kill -9 leaves
    expect(await alive.take(bucket, 1, 5)).toEqual({ taken: false, held: 5 });
    await new Promise((resolve) => setTimeout(resolve, ttlMs * 2));
    // The live instance renewed its 2 (every ttl/4); the killed one's 3 expired.
    expect(await alive.held(bucket)).toBe(2);
    expect(await alive.take(bucket, 3, 5)).toMatchObject({ taken: true });
    expect(await alive.take(bucket, 1, 5)).toEqual({ taken: false, held: 5 });
  });

  it("close gives back everything the instance holds", async () => {
    const [a, b] = [await pg(), await pg()];
    const bucket = `test:${randomUUID()}`;
    await a.take(bucket, 5, 5);
    await a.close();
    expect(await b.take(bucket, 5, 5)).toMatchObject({ taken: true });
  });
});
