import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import { config } from "@/lib/config";
import { resultRows, type Db } from "@/lib/db";
import { accounts, apiKeys } from "@/lib/db/schema";
import { UnauthorizedError } from "@/lib/errors";
import { hashKey, isWellFormedKey } from "./api-keys";
import { isPlan, rateLimitFor } from "./plans";
import type { KeyPrincipal, Principal } from "./principal";
import { cachedPrincipal, cachePrincipal, principalGeneration } from "./principal-cache";
import { consumeRateLimit, decide, embeddedRateLimitStore, rateLimitStore, windowOf, type RateLimitDecision } from "./rate-limit";
import { sessionAccountId } from "./session";

/**
 * Admission: who is calling, and may they make one more request this minute. lib/http reads the
 * request (lib/http/bearer.ts, the Cookie header) and asks here; nothing here reads a Request.
 */

export interface Admission {
  principal: Principal;
  decision: RateLimitDecision;
}

/** What the transport read from a request. */
export interface PresentedCredentials {
  /** The Bearer token: undefined when no Authorization header was sent, null when it is not a Bearer token. */
  token: string | null | undefined;
  /** The raw `Cookie` header (a dashboard session), or null. */
  cookieHeader: string | null;
}

/**
 * A keyed request's caller: the API key when an Authorization header was sent, otherwise the
 * dashboard session; the request is counted against the caller's rate limit. Throws 401 (a
 * domain error) when neither admits it; the caller checks `decision.allowed`.
 */
export async function admitRequest(db: Db, presented: PresentedCredentials, now: number = Date.now()): Promise<Admission> {
  if (presented.token === undefined) {
    const session = await admitSession(db, presented.cookieHeader, now);
    if (session !== undefined) return session;
    throw new UnauthorizedError("Missing API key: send the header 'Authorization: Bearer <key>'.");
  }
  if (presented.token === null || !isWellFormedKey(presented.token)) {
    throw new UnauthorizedError("Malformed API key: expected 'Authorization: Bearer brier_live_…'.");
  }
  const admitted = await admitKey(db, presented.token, now);
  if (admitted === undefined) throw new UnauthorizedError("Invalid or revoked API key.");
  return admitted;
}

/** A dashboard session calling the API (the dashboard's own pages): its account, counted per account. */
async function admitSession(db: Db, cookieHeader: string | null, now: number): Promise<Admission | undefined> {
  const accountId = await sessionAccountId(cookieHeader);
  if (accountId === undefined) return undefined;
  const [account] = await db.select({ email: accounts.email, plan: accounts.plan }).from(accounts).where(eq(accounts.id, accountId));
  if (account === undefined) return undefined;
  const decision = await consumeRateLimit(rateLimitStore(db), `account:${accountId}`, rateLimitFor(account.plan), now);
  return { principal: { accountId, email: account.email, plan: account.plan, keyId: null, via: "session" }, decision };
}

/**
 * Resolves a presented key to its account and plan (active keys only) and counts the request in
 * the key's rate-limit window; undefined for an unknown or revoked key. Two strategies, one
 * contract (lib/auth/admission.test.ts runs the same suite against both).
 */
export function admitKey(db: Db, key: string, now: number = Date.now()): Promise<Admission | undefined> {
  return config.embeddedPostgres ? admitKeyInProcess(db, key, now) : admitKeyShared(db, key, now);
}

/**
 * Embedded setup: this process owns the database, so principals are cached (every key or plan
 * write in this process invalidates them) and requests are counted in memory, written behind.
 * The hot path then touches the database only for a key it has not seen.
 */
export async function admitKeyInProcess(db: Db, key: string, now: number): Promise<Admission | undefined> {
  const hash = hashKey(key);
  let principal = cachedPrincipal(hash);
  if (principal === undefined) {
    const generation = principalGeneration();
    principal = await findPrincipalByHash(db, hash);
    if (principal === undefined) return undefined;
    cachePrincipal(hash, principal, generation);
  }
  const decision = await consumeRateLimit(embeddedRateLimitStore(db), `key:${principal.keyId}`, rateLimitFor(principal.plan), now);
  return { principal: { ...principal, via: "key" }, decision };
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
export async function admitKeyShared(db: Db, key: string, now: number): Promise<Admission | undefined> {
  const { windowStart } = windowOf(now);
  const result = await db.execute(
    sql`select key_id, account_id, email, plan, hits from brier_admit_key(${hashKey(key)}, ${new Date(windowStart).toISOString()}::timestamptz)`,
  );
  const rows = resultRows<{
    key_id: string;
    account_id: string;
    email: string;
    plan: string;
    hits: number | string;
  }>(result);
  const row = rows[0];
  if (row === undefined) return undefined;
  if (!isPlan(row.plan)) throw new Error(`account ${row.account_id} has an unknown plan`);
  return {
    principal: { keyId: row.key_id, accountId: row.account_id, email: row.email, plan: row.plan, via: "key" },
    decision: decide(Number(row.hits), rateLimitFor(row.plan), now),
  };
}
