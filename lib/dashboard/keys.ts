import "server-only";
import { and, eq, gte, isNotNull, sql } from "drizzle-orm";
import { listApiKeys, type ApiKeyPublic } from "@/lib/auth/api-keys";
import type { Db } from "@/lib/db";
import { usage } from "@/lib/db/schema";

export const USAGE_WINDOW_HOURS = 24;

/** Requests made with one key over the usage window, with an hourly breakdown (oldest hour first). */
export interface KeyUsage {
  total: number;
  errors: number;
  hourly: number[];
}

export interface KeyWithUsage extends ApiKeyPublic {
  usage: KeyUsage;
}

function emptyUsage(): KeyUsage {
  return { total: 0, errors: 0, hourly: new Array<number>(USAGE_WINDOW_HOURS).fill(0) };
}

/**
 * Requests per key of one account over the last 24 hours, bucketed by hour, counted in the
 * database (the usage table's (account_id, created_at) index) rather than by loading rows.
 */
export async function usagePerKey(db: Db, accountId: string, now: Date = new Date()): Promise<Map<string, KeyUsage>> {
  const windowStart = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000 - (USAGE_WINDOW_HOURS - 1) * 3_600_000);
  // Hours in UTC, as epoch seconds: independent of the session time zone on both drivers.
  const hour = sql<number>`extract(epoch from date_trunc('hour', ${usage.createdAt} at time zone 'UTC'))::bigint`;
  const rows = await db
    .select({
      keyId: usage.keyId,
      hour,
      total: sql<number>`count(*)::int`,
      errors: sql<number>`(count(*) filter (where ${usage.status} >= 400))::int`,
    })
    .from(usage)
    .where(and(eq(usage.accountId, accountId), isNotNull(usage.keyId), gte(usage.createdAt, windowStart)))
    .groupBy(usage.keyId, hour);
  const byKey = new Map<string, KeyUsage>();
  for (const row of rows) {
    if (row.keyId === null) continue;
    const entry = byKey.get(row.keyId) ?? emptyUsage();
    const index = Math.round((Number(row.hour) * 1000 - windowStart.getTime()) / 3_600_000);
    const count = Number(row.total);
    entry.total += count;
    entry.errors += Number(row.errors);
    if (index >= 0 && index < USAGE_WINDOW_HOURS) entry.hourly[index] = (entry.hourly[index] ?? 0) + count;
    byKey.set(row.keyId, entry);
  }
  return byKey;
}

/** The settings page's key list: every key of the account, newest first, with its 24 h usage. */
export async function listKeysWithUsage(db: Db, accountId: string, now?: Date): Promise<KeyWithUsage[]> {
  const [keys, perKey] = await Promise.all([listApiKeys(db, accountId), usagePerKey(db, accountId, now)]);
  return keys.map((key) => ({ ...key, usage: perKey.get(key.id) ?? emptyUsage() }));
}
