import "server-only";
import { and, desc, eq, gte, inArray, isNotNull, sql } from "drizzle-orm";
import { getDb, type Db } from "@/lib/db";
import { apiKeys } from "@/lib/db/schema/api-keys";
import { usage, type UsageRow } from "@/lib/db/schema/usage";
import { errorFields, log } from "@/lib/log";
import { listApiKeys, type ApiKeyPublic } from "./api-keys";
import { postgresRateLimitStore, WINDOW_MS } from "./rate-limit";
import { processGlobals } from "@/lib/process-globals.mjs";

/**
 * Usage: one row per keyed request (written behind, below) and the counts the settings page reads
 * back (per key, per hour, at the end of this file).
 *
 * Usage rows and key `lastUsedAt` are buffered in memory and written in batches, so a keyed
 * request never waits on bookkeeping. The buffer is bounded; a failed flush keeps its rows for
 * the next try, and the server flushes on SIGTERM.
 */

const FLUSH_INTERVAL_MS = 1_000;
const BATCH_SIZE = 1_000;
const MAX_BUFFERED = 100_000;
const LAST_USED_DEBOUNCE_MS = 60_000;

interface UsageState {
  rows: UsageRow[];
  /** keyId -> most recent use not yet written. */
  pendingTouches: Map<string, Date>;
  /** keyId -> when lastUsedAt was last written by this process. */
  lastTouchWritten: Map<string, number>;
  timer: NodeJS.Timeout | undefined;
  flushing: Promise<void> | undefined;
  dropped: number;
  lastPrune: number;
  /** When lastTouchWritten was last swept of entries that no longer debounce anything. */
  lastTouchSweep?: number;
}

const globalStore = processGlobals<{ __brierUsage?: UsageState }>();
const state: UsageState = (globalStore.__brierUsage ??= {
  rows: [],
  pendingTouches: new Map(),
  lastTouchWritten: new Map(),
  timer: undefined,
  flushing: undefined,
  dropped: 0,
  lastPrune: 0,
});

export function recordUsage(row: UsageRow): void {
  state.rows.push(row);
  if (state.rows.length > MAX_BUFFERED) {
    state.rows.splice(0, state.rows.length - MAX_BUFFERED);
    state.dropped += 1;
    if (state.dropped % 1000 === 1) log.error("usage buffer full; oldest rows dropped", { dropped: state.dropped });
  }
  if (row.keyId != null) {
    const written = state.lastTouchWritten.get(row.keyId) ?? 0;
    if (row.createdAt.getTime() - written >= LAST_USED_DEBOUNCE_MS) state.pendingTouches.set(row.keyId, row.createdAt);
  }
  scheduleFlush();
}

function scheduleFlush(): void {
  if (state.timer !== undefined) return;
  state.timer = setTimeout(() => {
    state.timer = undefined;
    void flushUsage().catch(() => undefined);
  }, FLUSH_INTERVAL_MS);
  state.timer.unref();
}

/** Writes everything buffered so far. Safe to call concurrently; resolves when the data is stored. */
export async function flushUsage(db?: Db): Promise<void> {
  while (state.flushing !== undefined) await state.flushing;
  if (state.rows.length === 0 && state.pendingTouches.size === 0) return;
  state.flushing = writeBuffered(db ?? (await getDb())).finally(() => {
    state.flushing = undefined;
  });
  await state.flushing;
}

async function writeBuffered(db: Db): Promise<void> {
  const rows = state.rows.splice(0, state.rows.length);
  const touches = new Map(state.pendingTouches);
  state.pendingTouches.clear();
  try {
    for (let i = 0; i < rows.length; i += BATCH_SIZE) await insertUsageRows(db, rows.slice(i, i + BATCH_SIZE));
    await writeTouches(db, touches);
    if (Date.now() - state.lastPrune > WINDOW_MS) {
      state.lastPrune = Date.now();
      await postgresRateLimitStore(db).prune(new Date(Date.now() - 2 * WINDOW_MS));
    }
  } catch (error) {
    // Keep the rows for the next flush (ahead of newer ones) and retry later.
    state.rows.unshift(...rows);
    for (const [keyId, at] of touches) if (!state.pendingTouches.has(keyId)) state.pendingTouches.set(keyId, at);
    log.error("usage flush failed; will retry", { rows: rows.length, ...errorFields(error) });
    scheduleFlush();
    throw error;
  }
}

/**
 * One statement per batch with the rows as ONE JSON parameter (as the catalog upsert does): the
 * statement text never changes, and building it costs nothing per row, where a VALUES list of
 * 1,000 rows is 8,000 parameters for drizzle to bind (a tenth of the server's CPU under load on
 * the embedded store, docs/performance.md).
 */
async function insertUsageRows(db: Db, rows: readonly UsageRow[]): Promise<void> {
  const json = JSON.stringify(
    rows.map((r) => ({
      account_id: r.accountId,
      key_id: r.keyId ?? null,
      method: r.method,
      path: r.path,
      status: r.status,
      duration_ms: r.durationMs,
      request_id: r.requestId,
      created_at: r.createdAt.toISOString(),
    })),
  );
  await db.execute(sql`insert into ${usage} (account_id, key_id, method, path, status, duration_ms, request_id, created_at)
    select account_id, key_id, method, path, status, duration_ms, request_id, created_at
    from jsonb_to_recordset(${json}::jsonb) as r(account_id uuid, key_id uuid, method text, path text, status int, duration_ms int, request_id text, created_at timestamptz)`);
}

async function writeTouches(db: Db, touches: Map<string, Date>): Promise<void> {
  if (touches.size === 0) return;
  // Group by timestamp-second to keep this to a handful of statements per flush.
  const bySecond = new Map<number, string[]>();
  for (const [keyId, at] of touches) {
    const second = Math.floor(at.getTime() / 1000) * 1000;
    bySecond.set(second, [...(bySecond.get(second) ?? []), keyId]);
  }
  for (const [second, keyIds] of bySecond) {
    const at = sql`${new Date(second).toISOString()}::timestamptz`;
    await db
      .update(apiKeys)
      .set({ lastUsedAt: sql`greatest(coalesce(${apiKeys.lastUsedAt}, ${at}), ${at})` })
      .where(inArray(apiKeys.id, keyIds));
    for (const keyId of keyIds) state.lastTouchWritten.set(keyId, second);
  }
  // A write older than the debounce no longer holds anything back (a missing entry reads as 0):
  // swept once per debounce interval, so the map holds the keys used in the last minute or two,
  // not every key ever seen (docs/performance.md, "Memory").
  const now = Date.now();
  if (now - (state.lastTouchSweep ?? 0) >= LAST_USED_DEBOUNCE_MS) {
    state.lastTouchSweep = now;
    for (const [keyId, written] of state.lastTouchWritten) if (now - written >= LAST_USED_DEBOUNCE_MS) state.lastTouchWritten.delete(keyId);
  }
}

export function usageBufferStats(): { buffered: number; dropped: number } {
  return { buffered: state.rows.length, dropped: state.dropped };
}

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

/** An account's failed keyed requests (status 400 and above) over the usage window. */
export interface AccountErrors {
  total: number;
  /** Count per HTTP status, most frequent first. */
  byStatus: { status: number; count: number }[];
  /** The newest failed requests, newest first. */
  recent: { at: string; keyId: string | null; method: string; path: string; status: number; requestId: string }[];
}

/**
 * The settings page's error list: failed requests made with the account's keys over the last
 * 24 hours, counted by status in the database and the newest few listed.
 */
export async function accountErrors(db: Db, accountId: string, now: Date = new Date(), recentLimit = 20): Promise<AccountErrors> {
  const windowStart = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000 - (USAGE_WINDOW_HOURS - 1) * 3_600_000);
  const failed = and(eq(usage.accountId, accountId), isNotNull(usage.keyId), gte(usage.createdAt, windowStart), gte(usage.status, 400));
  const [counts, recent] = await Promise.all([
    db
      .select({ status: usage.status, count: sql<number>`count(*)::int` })
      .from(usage)
      .where(failed)
      .groupBy(usage.status),
    db
      .select({ at: usage.createdAt, keyId: usage.keyId, method: usage.method, path: usage.path, status: usage.status, requestId: usage.requestId })
      .from(usage)
      .where(failed)
      .orderBy(desc(usage.createdAt), desc(usage.id))
      .limit(recentLimit),
  ]);
  const byStatus = counts.map((row) => ({ status: Number(row.status), count: Number(row.count) })).sort((a, b) => b.count - a.count || a.status - b.status);
  return {
    total: byStatus.reduce((sum, row) => sum + row.count, 0),
    byStatus,
    recent: recent.map((row) => ({ ...row, at: new Date(row.at).toISOString() })),
  };
}
