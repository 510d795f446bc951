import "server-only";
import { inArray, sql } from "drizzle-orm";
import { getDb, type Db } from "@/lib/db";
import { apiKeys, usage, type UsageRow } from "@/lib/db/schema";
import { errorFields, log } from "@/lib/log";
import { postgresRateLimitStore, WINDOW_MS } from "./rate-limit";

/**
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
}

const globalStore = globalThis as typeof globalThis & { __brierUsage?: UsageState };
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
    for (let i = 0; i < rows.length; i += BATCH_SIZE) {
      await db.insert(usage).values(rows.slice(i, i + BATCH_SIZE));
    }
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
}

export function usageBufferStats(): { buffered: number; dropped: number } {
  return { buffered: state.rows.length, dropped: state.dropped };
}
