import "server-only";
import { randomUUID } from "node:crypto";
import { and, eq, gt, like, lt, notLike, or, sql } from "drizzle-orm";
import { config } from "@/lib/config";
import type { Db } from "@/lib/db";
import { ingestLeases } from "@/lib/db/schema/ingest-leases";
import { processGlobals } from "@/lib/process-globals.mjs";

/**
 * Per-venue ingestion leases (lib/db/schema/ingest-leases.ts): at most one poll of a venue at a
 * time across processes, and a crashed holder never blocks the catalog for long.
 *
 * - Holders are `<process id>:<run id>`, the process id random per process start.
 * - Every lease is short (LEASE_TTL_MS) and heartbeated (LEASE_HEARTBEAT_MS) while its run is
 *   alive, so on PostgreSQL a lease whose holder died expires within LEASE_TTL_MS, whatever the
 *   venue timeouts (the old lease covered every attempt up front: up to 444 s with the defaults).
 * - Embedded (PGlite): the data-dir lock proves this process is the only one alive, so a lease
 *   held by any other process id is a dead process's and is taken at once.
 */

export const LEASE_TTL_MS = 15_000;
export const LEASE_HEARTBEAT_MS = 5_000;

/**
 * This process's part of every holder it writes. On globalThis, not per module: Next bundles
 * instrumentation.ts (which runs the schedule's polls) and the route handlers (which read /v0/status)
 * apart, each with its own copy of this module, and two ids in one process made the status read a
 * live poll as a dead process's (`abandoned`) on the embedded store.
 */
const processGlobal = processGlobals<{ __brierLeaseProcessId?: string }>();
export const processLeaseId = (processGlobal.__brierLeaseProcessId ??= randomUUID());

export interface VenueLease {
  holder: string;
  /** Stops the heartbeat and deletes the lease (only if still ours). */
  release: () => Promise<void>;
}

/** Takes the venue's lease if it is free, expired or (embedded) a dead process's; undefined when a live run holds it. */
export async function acquireVenueLease(db: Db, venue: string, now: () => Date = () => new Date()): Promise<VenueLease | undefined> {
  const holder = `${processLeaseId}:${randomUUID()}`;
  const expiresAt = new Date(now().getTime() + LEASE_TTL_MS);
  const takeable = config.embeddedPostgres
    ? or(lt(ingestLeases.expiresAt, sql`now()`), notLike(ingestLeases.holder, `${processLeaseId}:%`))
    : lt(ingestLeases.expiresAt, sql`now()`);
  const rows = await db
    .insert(ingestLeases)
    .values({ venue, holder, expiresAt })
    .onConflictDoUpdate({ target: ingestLeases.venue, set: { holder, expiresAt }, setWhere: takeable })
    .returning({ holder: ingestLeases.holder });
  if (rows[0]?.holder !== holder) return undefined;

  let beating: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    beating = db
      .update(ingestLeases)
      .set({ expiresAt: new Date(now().getTime() + LEASE_TTL_MS) })
      .where(and(eq(ingestLeases.venue, venue), eq(ingestLeases.holder, holder)))
      .catch(() => undefined); // a missed beat is retried at the next one; the TTL covers two
  }, LEASE_HEARTBEAT_MS);
  timer.unref?.();
  return {
    holder,
    release: async () => {
      clearInterval(timer);
      await beating;
      await db.delete(ingestLeases).where(and(eq(ingestLeases.venue, venue), eq(ingestLeases.holder, holder)));
    },
  };
}

/**
 * Venues whose lease is held by a live run: unexpired, and on the embedded store held by this
 * process (no other can be alive). A `running` ingest_runs row of any other venue is a dead run's.
 */
export async function liveLeaseVenues(db: Db): Promise<Set<string>> {
  const live = config.embeddedPostgres
    ? and(gt(ingestLeases.expiresAt, sql`now()`), like(ingestLeases.holder, `${processLeaseId}:%`))
    : gt(ingestLeases.expiresAt, sql`now()`);
  const rows = await db.select({ venue: ingestLeases.venue }).from(ingestLeases).where(live);
  return new Set(rows.map((row) => row.venue));
}
