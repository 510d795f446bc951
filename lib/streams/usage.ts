import "server-only";
import { and, eq, gte, isNotNull, sql } from "drizzle-orm";
import { config, type Plan } from "@/lib/config";
import { getDb, type Db } from "@/lib/db";
import { streamUsage, type StreamUsageRow } from "@/lib/db/schema/stream-usage";
import { errorFields, log } from "@/lib/log";
import type { StreamUsageSample } from "./usage-meter";
import { processGlobals } from "@/lib/process-globals.mjs";

/**
 * Stream usage per key (stream minutes and data messages), sampled by the hub every minute and
 * when a session closes, buffered here and written in batches: a delivery never waits on it. The
 * buffer is bounded; a failed write keeps its rows for the next try.
 */

const FLUSH_INTERVAL_MS = 5_000;
const MAX_BUFFERED = 50_000;

interface State {
  rows: StreamUsageRow[];
  timer: NodeJS.Timeout | undefined;
  flushing: Promise<void> | undefined;
}

const globalStore = processGlobals<{ __brierStreamUsage?: State }>();
const state: State = (globalStore.__brierStreamUsage ??= { rows: [], timer: undefined, flushing: undefined });

export function recordStreamUsage(sample: StreamUsageSample): void {
  if (sample.messages === 0 && sample.streamSeconds < 0.001) return;
  state.rows.push({
    accountId: sample.accountId,
    keyId: sample.keyId,
    surface: sample.surface,
    streamSeconds: sample.streamSeconds,
    messages: sample.messages,
    createdAt: new Date(),
  });
  if (state.rows.length > MAX_BUFFERED) state.rows.splice(0, state.rows.length - MAX_BUFFERED);
  if (state.timer === undefined) {
    state.timer = setTimeout(() => {
      state.timer = undefined;
      void flushStreamUsage().catch(() => undefined);
    }, FLUSH_INTERVAL_MS);
    state.timer.unref();
  }
}

/** Writes everything buffered; resolves when it is stored. */
export async function flushStreamUsage(db?: Db): Promise<void> {
  while (state.flushing !== undefined) await state.flushing;
  if (state.rows.length === 0) return;
  const rows = state.rows.splice(0, state.rows.length);
  state.flushing = (async () => {
    const target = db ?? (await getDb());
    try {
      for (let i = 0; i < rows.length; i += 1_000) await target.insert(streamUsage).values(rows.slice(i, i + 1_000));
    } catch (error) {
      state.rows.unshift(...rows);
      log.error("stream usage flush failed; will retry", { rows: rows.length, ...errorFields(error) });
      throw error;
    }
  })().finally(() => {
    state.flushing = undefined;
  });
  await state.flushing;
}

export interface KeyStreamUsage {
  /** Subscription-minutes over the window. */
  streamMinutes: number;
  messages: number;
}

/** Stream minutes and messages per key of one account over the last `hours` hours. */
export async function streamUsagePerKey(db: Db, accountId: string, hours = 24, now: Date = new Date()): Promise<Map<string, KeyStreamUsage>> {
  const since = new Date(now.getTime() - hours * 3_600_000);
  const rows = await db
    .select({
      keyId: streamUsage.keyId,
      seconds: sql<number>`coalesce(sum(${streamUsage.streamSeconds}), 0)::float8`,
      messages: sql<number>`coalesce(sum(${streamUsage.messages}), 0)::float8`,
    })
    .from(streamUsage)
    .where(and(eq(streamUsage.accountId, accountId), isNotNull(streamUsage.keyId), gte(streamUsage.createdAt, since)))
    .groupBy(streamUsage.keyId);
  const byKey = new Map<string, KeyStreamUsage>();
  for (const row of rows) {
    if (row.keyId === null) continue;
    byKey.set(row.keyId, { streamMinutes: Number(row.seconds) / 60, messages: Number(row.messages) });
  }
  return byKey;
}

/** A plan's stream limits, as the settings page states them. */
export function streamLimits(plan: Plan): { subscriptions: number; connectionsPerKey: number } {
  return { subscriptions: config.streams.subscriptions[plan], connectionsPerKey: config.streams.connectionsPerKey };
}
