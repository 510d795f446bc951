import "server-only";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db";
import { MemoryKeyLimits, PgKeyLimits, type KeyLimits } from "./key-limits";
import { processGlobals } from "@/lib/process-globals.mjs";

export { KeyCap } from "./cap";
export { MemoryKeyLimits, PgKeyLimits } from "./key-limits";
export type { KeyLimits, Lease, TakeResult } from "./key-limits";

const globalStore = processGlobals<{ __brierKeyLimits?: Promise<KeyLimits> }>();

/**
 * The process's per-key limits: in memory on the embedded setup (one process serves every
 * client), leases in PostgreSQL otherwise (every web instance counts against the same rows).
 */
export function getKeyLimits(): Promise<KeyLimits> {
  globalStore.__brierKeyLimits ??= config.embeddedPostgres
    ? Promise.resolve(new MemoryKeyLimits())
    : getDb().then((db) => new PgKeyLimits(db, { ttlMs: config.limits.leaseTtlMs }));
  globalStore.__brierKeyLimits.catch(() => {
    globalStore.__brierKeyLimits = undefined;
  });
  return globalStore.__brierKeyLimits;
}

/** Gives back what this process holds (shutdown); another instance's take sees it free at once. */
export async function closeKeyLimits(): Promise<void> {
  const limits = globalStore.__brierKeyLimits;
  globalStore.__brierKeyLimits = undefined;
  await (await limits?.catch(() => undefined))?.close();
}
