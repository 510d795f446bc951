import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { getDb, openDatabase, type ChannelWatch } from "@/lib/db";
import { postgresChannelWatcher, registerChannelWatcher } from "@/lib/db/notifications";
import { rateLimits } from "@/lib/db/schema";
import { makeKey } from "@/test/helpers/keys";
import { admitKeyShared } from "./admission";
import { hashKey } from "./api-keys";
import { cachedSharedPrincipal, sharedPrincipalsLive } from "./key-watch";
import { rateLimitFor } from "./plans";
import { leaseSize, windowOf } from "./rate-limit";

// Admission on PostgreSQL from memory (lib/auth/key-watch.ts): principals kept while this process
// LISTENs for key and plan writes, and hits counted from leases of the shared counter. Writes here
// come from another connection, as another instance's or the admin CLI's would.
const other = config.databaseUrl === undefined ? undefined : postgres(config.databaseUrl, { max: 1, onnotice: () => undefined });
afterAll(async () => {
  await other?.end({ timeout: 1 });
});

/** Polls `check` every 5 ms for at most `ms`; how many polls it took, or throws. */
async function until(check: () => boolean | Promise<boolean>, ms = 5_000): Promise<number> {
  const deadline = Date.now() + ms;
  for (let polls = 0; ; polls += 1) {
    if (await check()) return polls;
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * A TCP relay to PostgreSQL whose connections can be made to go silent: `silence()` stops relaying
 * every connection open at that moment in both directions without closing it, as a dropped route or a
 * frozen peer would (no FIN, no RST: the client's socket stays open); connections opened later relay
 * normally.
 */
async function silenceableRelay(target: URL): Promise<{ url: string; silence: () => number; close: () => Promise<void> }> {
  const open = new Set<{ client: Socket; upstream: Socket; silent: boolean }>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    const pair = { client, upstream, silent: false };
    open.add(pair);
    client.on("data", (chunk) => pair.silent || upstream.write(chunk));
    upstream.on("data", (chunk) => pair.silent || client.write(chunk));
    const end = () => {
      open.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    silence: () => {
      for (const pair of open) pair.silent = true;
      return open.size;
    },
    close: async () => {
      for (const pair of open) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The session listening for key writes, as PostgreSQL lists it. */
async function listenerPids(sql: postgres.Sql): Promise<number[]> {
  const rows = await sql<Array<{ pid: number }>>`select pid from pg_stat_activity where datname = current_database() and query = 'listen "brier_keys"'`;
  return rows.map((row) => row.pid);
}

describe.runIf(config.databaseUrl !== undefined)("admission from memory on PostgreSQL", () => {
  const sqlOf = () => {
    if (other === undefined) throw new Error("no PostgreSQL");
    return other;
  };

  it("keeps a principal once listening, and drops it when another connection revokes the key", async () => {
    const db = await getDb();
    const key = await makeKey("pro");
    await admitKeyShared(db, key.key, Date.now());
    await until(() => sharedPrincipalsLive(db));
    expect(await admitKeyShared(db, key.key, Date.now())).toMatchObject({ principal: { keyId: key.keyId } });
    expect(cachedSharedPrincipal(db, hashKey(key.key))).toMatchObject({ keyId: key.keyId, plan: "pro" });
    await sqlOf()`update api_keys set revoked_at = now() where id = ${key.keyId}`;
    // The notification arrives on the listening connection after the commit: polled, not assumed.
    await until(() => cachedSharedPrincipal(db, hashKey(key.key)) === undefined, 2_000);
    expect(await admitKeyShared(db, key.key, Date.now())).toBeUndefined();
  });

  it("drops a kept principal when another connection changes the account's plan, and not for a lastUsedAt write", async () => {
    const db = await getDb();
    const key = await makeKey("free");
    await until(() => sharedPrincipalsLive(db));
    await admitKeyShared(db, key.key, Date.now());
    expect(cachedSharedPrincipal(db, hashKey(key.key))?.plan).toBe("free");
    await sqlOf()`update api_keys set last_used_at = now() where id = ${key.keyId}`;
    await sqlOf()`select pg_sleep(0.05)`;
    expect(cachedSharedPrincipal(db, hashKey(key.key))?.plan).toBe("free");
    await sqlOf()`update accounts set plan = 'enterprise' where id = ${key.accountId}`;
    await until(() => cachedSharedPrincipal(db, hashKey(key.key)) === undefined, 2_000);
    expect((await admitKeyShared(db, key.key, Date.now()))?.principal.plan).toBe("enterprise");
  });

  it("uses nothing kept while the listening connection is gone: a revocation then is refused on the very next request", async () => {
    const db = await getDb();
    const key = await makeKey("pro");
    await until(() => sharedPrincipalsLive(db));
    await admitKeyShared(db, key.key, Date.now());
    expect(cachedSharedPrincipal(db, hashKey(key.key))).toBeDefined();
    const pids = await listenerPids(sqlOf());
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) await sqlOf()`select pg_terminate_backend(${pid})`;
    await until(() => !sharedPrincipalsLive(db), 2_000);
    expect(cachedSharedPrincipal(db, hashKey(key.key))).toBeUndefined();
    await sqlOf()`update api_keys set revoked_at = now() where id = ${key.keyId}`;
    expect(await admitKeyShared(db, key.key, Date.now())).toBeUndefined();
    // It listens again by itself, and starts from nothing kept.
    await until(() => sharedPrincipalsLive(db), 5_000);
    expect(await admitKeyShared(db, key.key, Date.now())).toBeUndefined();
    const fresh = await makeKey("pro");
    await admitKeyShared(db, fresh.key, Date.now());
    expect(cachedSharedPrincipal(db, hashKey(fresh.key))?.keyId).toBe(fresh.keyId);
  });

  it("takes a listening connection that goes silent for lost within the heartbeat's deadline, then listens again and hears a revocation", async () => {
    if (config.databaseUrl === undefined) throw new Error("no PostgreSQL");
    // Another instance: its queries go straight to PostgreSQL, its LISTEN through a relay that can go silent.
    const relay = await silenceableRelay(new URL(config.databaseUrl));
    const instance = await openDatabase({ url: config.databaseUrl });
    const watches: ChannelWatch[] = [];
    const watcher = postgresChannelWatcher(relay.url);
    registerChannelWatcher(instance.db, (channel, handlers) => {
      const watch = watcher(channel, handlers);
      watches.push(watch);
      return watch;
    });
    try {
      const db = instance.db;
      const key = await makeKey("pro");
      await until(() => sharedPrincipalsLive(db));
      await admitKeyShared(db, key.key, Date.now());
      expect(cachedSharedPrincipal(db, hashKey(key.key))?.keyId).toBe(key.keyId);

      expect(relay.silence()).toBe(1);
      const silencedAt = Date.now();
      // A beat every second, unanswered within two: lost at most ~3 s after the silence (1 s of slack for a loaded machine's timers).
      await until(() => !sharedPrincipalsLive(db), 4_000);
      const detectedMs = Date.now() - silencedAt;
      expect(detectedMs).toBeGreaterThanOrEqual(1_500);
      expect(cachedSharedPrincipal(db, hashKey(key.key))).toBeUndefined();
      // Falls back to the database while deaf: a revocation meanwhile is refused on the next request.
      await sqlOf()`update api_keys set revoked_at = now() where id = ${key.keyId}`;
      expect(await admitKeyShared(db, key.key, Date.now())).toBeUndefined();

      // Listens again on a new connection by itself, from nothing kept; a revocation then reaches it by notification.
      await until(() => sharedPrincipalsLive(db), 5_000);
      const fresh = await makeKey("pro");
      await admitKeyShared(db, fresh.key, Date.now());
      expect(cachedSharedPrincipal(db, hashKey(fresh.key))?.keyId).toBe(fresh.keyId);
      await sqlOf()`update api_keys set revoked_at = now() where id = ${fresh.keyId}`;
      await until(() => cachedSharedPrincipal(db, hashKey(fresh.key)) === undefined, 2_000);
      expect(sharedPrincipalsLive(db)).toBe(true);
      expect(await admitKeyShared(db, fresh.key, Date.now())).toBeUndefined();
    } finally {
      await Promise.all(watches.map((watch) => watch.close()));
      await instance.close();
      await relay.close();
    }
  });

  it("counts hits from leases: exactly 1, 2, 3, ... on one instance, the shared row never below what was served, refused past the limit", async () => {
    const db = await getDb();
    const key = await makeKey("free");
    const limit = rateLimitFor("free");
    await until(() => sharedPrincipalsLive(db));
    const start = windowOf(Date.now()).windowStart + 60_000 + 1_000;
    const served: number[] = [];
    const bucketRow = async () => {
      const [row] = await db.select({ count: rateLimits.count }).from(rateLimits).where(eq(rateLimits.bucket, `key:${key.keyId}`));
      return row?.count ?? 0;
    };
    for (let i = 0; i < limit; i += 1) {
      const admitted = await admitKeyShared(db, key.key, start);
      served.push(limit - (admitted?.decision.remaining ?? -1));
      expect(admitted?.decision.allowed).toBe(true);
      expect(await bucketRow()).toBeGreaterThanOrEqual(i + 1);
    }
    expect(served).toEqual(Array.from({ length: limit }, (_, i) => i + 1));
    // Near the limit every hit is its own round trip, so the row says exactly what was served.
    expect(await bucketRow()).toBe(limit);
    expect((await admitKeyShared(db, key.key, start))?.decision).toMatchObject({ allowed: false, remaining: 0 });
    expect(await bucketRow()).toBe(limit + 1);
  });

  it("keeps the numbers 1, 2, 3, ... when a key write drops the kept principal between hits (the next hit counted in the row, past the lease)", async () => {
    const db = await getDb();
    const key = await makeKey("free");
    const limit = rateLimitFor("free");
    await until(() => sharedPrincipalsLive(db));
    const start = windowOf(Date.now()).windowStart + 2 * 60_000 + 1_000;
    const served: number[] = [];
    const admit = async () => {
      const admitted = await admitKeyShared(db, key.key, start);
      expect(admitted?.decision.allowed).toBe(true);
      served.push(limit - (admitted?.decision.remaining ?? -1));
    };
    // The first hit is counted by the lookup; the second takes a lease of 3 (the row at 4).
    await admit();
    await admit();
    expect(leaseSize(limit, 1)).toBe(3);
    // Another key's write drops every kept principal (lib/auth/key-watch.ts): the next hit goes to the row, at 5.
    await makeKey("free");
    await until(() => cachedSharedPrincipal(db, hashKey(key.key)) === undefined, 5_000);
    for (let i = 0; i < 6; i += 1) await admit();
    expect(served).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // The row is never below what was served: the first lease's 3 and the looked-up hits, then further leases.
    const [row] = await db.select({ count: rateLimits.count }).from(rateLimits).where(eq(rateLimits.bucket, `key:${key.keyId}`));
    expect(row?.count).toBeGreaterThanOrEqual(8);
  });

  it("sizes a lease by what is left of the limit: one hit at the limit, at most 64 far from it", () => {
    expect([leaseSize(60, 1), leaseSize(60, 44), leaseSize(60, 45), leaseSize(60, 60), leaseSize(60, 90)]).toEqual([3, 1, 1, 1, 1]);
    expect([leaseSize(6_000, 1), leaseSize(6_000, 5_000), leaseSize(6_000, 5_990)]).toEqual([64, 62, 1]);
  });

  it("two instances' leases of one key never admit past the limit together", async () => {
    const db = await getDb();
    const key = await makeKey("free");
    const limit = rateLimitFor("free");
    await until(() => sharedPrincipalsLive(db));
    const start = windowOf(Date.now()).windowStart + 120_000 + 1_000;
    await admitKeyShared(db, key.key, start);
    // Another instance's lease of 20 hits in the same window, unserved.
    await sqlOf()`update rate_limits set count = count + 20 where bucket = ${`key:${key.keyId}`} and window_start = ${new Date(windowOf(start).windowStart)}`;
    let allowed = 1;
    for (let i = 0; i < limit; i += 1) if ((await admitKeyShared(db, key.key, start))?.decision.allowed === true) allowed += 1;
    expect(allowed).toBeLessThanOrEqual(limit - 20);
    expect(allowed).toBeGreaterThan(limit - 20 - leaseSize(limit, 1));
  });
});

describe.runIf(config.databaseUrl === undefined)("admission on the embedded store", () => {
  it("keeps nothing through the shared path: there is no other instance to hear from, and no channel", async () => {
    const db = await getDb();
    const key = await makeKey("pro");
    await admitKeyShared(db, key.key, Date.now());
    await admitKeyShared(db, key.key, Date.now());
    expect(sharedPrincipalsLive(db)).toBe(false);
    expect(cachedSharedPrincipal(db, hashKey(key.key))).toBeUndefined();
  });
});
