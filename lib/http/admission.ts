import "server-only";
import { sql } from "drizzle-orm";
import { hashKey, type KeyPrincipal } from "@/lib/auth/api-keys";
import { isPlan, rateLimitFor } from "@/lib/auth/plans";
import type { Db } from "@/lib/db";
import { accounts, apiKeys, rateLimits } from "@/lib/db/schema";
import { decide, windowOf, type RateLimitDecision } from "./rate-limit";

/**
 * Admits a keyed request in one database round trip: resolves the key to its account and plan
 * (active keys only, so a revocation is seen by the very next request on every instance) and
 * counts the request in the key's rate-limit window. This runs on every API request, so it is
 * one statement rather than a lookup followed by the rate limiter's own upsert; the counters are
 * the same `rate_limits` rows the RateLimitStore uses for dashboard sessions.
 */
export async function admitKey(
  db: Db,
  key: string,
  now: number = Date.now(),
): Promise<{ principal: KeyPrincipal; decision: RateLimitDecision } | undefined> {
  const { windowStart } = windowOf(now);
  const result = await db.execute(sql`
    with k as (
      select ${apiKeys.id} as key_id, ${apiKeys.accountId} as account_id, ${accounts.plan} as plan
      from ${apiKeys} join ${accounts} on ${accounts.id} = ${apiKeys.accountId}
      where ${apiKeys.hash} = ${hashKey(key)} and ${apiKeys.revokedAt} is null
      limit 1
    ), hit as (
      insert into ${rateLimits} (bucket, window_start, count)
      select 'key:' || k.key_id, ${new Date(windowStart).toISOString()}::timestamptz, 1 from k
      on conflict (bucket, window_start) do update set count = ${rateLimits}.count + 1
      returning count
    )
    select k.key_id, k.account_id, k.plan, (select count from hit) as count from k`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{
    key_id: string;
    account_id: string;
    plan: string;
    count: number | string;
  }>;
  const row = rows[0];
  if (row === undefined) return undefined;
  if (!isPlan(row.plan)) throw new Error(`account ${row.account_id} has an unknown plan`);
  return {
    principal: { keyId: row.key_id, accountId: row.account_id, plan: row.plan },
    decision: decide(Number(row.count), rateLimitFor(row.plan), now),
  };
}
