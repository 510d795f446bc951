import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import { hashKey, type KeyPrincipal } from "@/lib/auth/api-keys";
import { isPlan, rateLimitFor } from "@/lib/auth/plans";
import { cachedPrincipal, cachePrincipal, principalGeneration } from "@/lib/auth/principal-cache";
import { config } from "@/lib/config";
import type { Db } from "@/lib/db";
import { accounts, apiKeys } from "@/lib/db/schema";
import { consumeRateLimit, decide, embeddedRateLimitStore, windowOf, type RateLimitDecision } from "./rate-limit";

export interface Admitted {
  principal: KeyPrincipal;
  decision: RateLimitDecision;
}

/**
 * Resolves a presented key to its account and plan (active keys only) and counts the request in
 * the key's rate-limit window; undefined for an unknown or revoked key.
 */
export function admitKey(db: Db, key: string, now: number = Date.now()): Promise<Admitted | undefined> {
  return config.embeddedPostgres ? admitKeyInProcess(db, key, now) : admitKeyShared(db, key, now);
}

/**
 * Embedded setup: this process owns the database, so principals are cached (every key or plan
 * write in this process invalidates them) and requests are counted in memory, written behind.
 * The hot path then touches the database only for a key it has not seen.
 */
async function admitKeyInProcess(db: Db, key: string, now: number): Promise<Admitted | undefined> {
  const hash = hashKey(key);
  let principal = cachedPrincipal(hash);
  if (principal === undefined) {
    const generation = principalGeneration();
    principal = await findPrincipalByHash(db, hash);
    if (principal === undefined) return undefined;
    cachePrincipal(hash, principal, generation);
  }
  const decision = await consumeRateLimit(embeddedRateLimitStore(db), `key:${principal.keyId}`, rateLimitFor(principal.plan), now);
  return { principal, decision };
}

async function findPrincipalByHash(db: Db, hash: string): Promise<KeyPrincipal | undefined> {
  const [row] = await db
    .select({ keyId: apiKeys.id, accountId: apiKeys.accountId, email: accounts.email, plan: accounts.plan })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(and(eq(apiKeys.hash, hash), isNull(apiKeys.revokedAt)))
    .limit(1);
  return row;
}

/**
 * PostgreSQL (several instances): one round trip per request, nothing cached, so a revocation is
 * seen by the very next request on every instance. The key lookup and the rate-limit count are one
 * call of `brier_admit_key` (drizzle/0004_hot_path.sql, 0005) rather than a lookup followed by the rate
 * limiter's own upsert; the counters are the same `rate_limits` rows the RateLimitStore uses for
 * dashboard sessions.
 */
async function admitKeyShared(db: Db, key: string, now: number): Promise<Admitted | undefined> {
  const { windowStart } = windowOf(now);
  const result = await db.execute(
    sql`select key_id, account_id, email, plan, hits from brier_admit_key(${hashKey(key)}, ${new Date(windowStart).toISOString()}::timestamptz)`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{
    key_id: string;
    account_id: string;
    email: string;
    plan: string;
    hits: number | string;
  }>;
  const row = rows[0];
  if (row === undefined) return undefined;
  if (!isPlan(row.plan)) throw new Error(`account ${row.account_id} has an unknown plan`);
  return {
    principal: { keyId: row.key_id, accountId: row.account_id, email: row.email, plan: row.plan },
    decision: decide(Number(row.hits), rateLimitFor(row.plan), now),
  };
}
