import "server-only";
import { and, desc, eq, ne, sql } from "drizzle-orm";
import { config } from "@/lib/config";
import type { Db } from "@/lib/db";
import { ingestRuns } from "@/lib/db/schema/ingest-runs";
import { markets } from "@/lib/db/schema/markets";
import { isoOrNull } from "@/lib/format";
import { liveLeaseVenues } from "./lease";
import { catalogVenues } from "./venues";

export interface VenueCatalogStatus {
  venue: string;
  lastRun: {
    trigger: string;
    startedAt: string;
    finishedAt: string | null;
    outcome: string;
    attempts: number;
    eventsSeen: number;
    marketsSeen: number;
    marketsClosed: number;
    error: string | null;
  } | null;
  lastSuccessAt: string | null;
  /** Seconds since the last successful poll finished; null when there has been none. */
  dataAgeSeconds: number | null;
  markets: { total: number; open: number };
}

/** The catalog section of GET /v0/status: per venue, the last run, its outcome and counts, and data age. */
export async function catalogStatus(db: Db): Promise<{ pollSeconds: number; venues: VenueCatalogStatus[] }> {
  const [latest, successes, counts, live] = await Promise.all([
    db
      .selectDistinctOn([ingestRuns.venue])
      .from(ingestRuns)
      .orderBy(ingestRuns.venue, sql`${ingestRuns.startedAt} desc`),
    db
      .select({ venue: ingestRuns.venue, finishedAt: sql<Date | string | null>`max(${ingestRuns.finishedAt})` })
      .from(ingestRuns)
      .where(sql`${ingestRuns.outcome} = 'succeeded'`)
      .groupBy(ingestRuns.venue),
    db
      .select({
        venue: markets.venue,
        total: sql<number>`count(*)::int`,
        open: sql<number>`(count(*) filter (where ${markets.closed} = false))::int`,
      })
      .from(markets)
      .groupBy(markets.venue),
    liveLeaseVenues(db),
  ]);
  const venues = [...new Set([...catalogVenues(), ...latest.map((r) => r.venue), ...counts.map((c) => c.venue)])].sort();
  const now = Date.now();
  return {
    pollSeconds: config.catalog.pollSeconds,
    venues: venues.map((venue) => {
      const run = latest.find((r) => r.venue === venue);
      const lastSuccessAt = isoOrNull(successes.find((s) => s.venue === venue)?.finishedAt);
      const count = counts.find((c) => c.venue === venue);
      return {
        venue,
        lastRun:
          run === undefined
            ? null
            : {
                trigger: run.trigger,
                startedAt: isoOrNull(run.startedAt) ?? "",
                finishedAt: isoOrNull(run.finishedAt),
                // A `running` row without a live lease is a run whose process died (the next run closes it).
                outcome: run.outcome === "running" && !live.has(venue) ? "abandoned" : run.outcome,
                attempts: run.attempts,
                eventsSeen: run.eventsSeen,
                marketsSeen: run.marketsSeen,
                marketsClosed: run.marketsClosed,
                error: run.error,
              },
        lastSuccessAt,
        dataAgeSeconds: lastSuccessAt === null ? null : Math.max(0, Math.round((now - Date.parse(lastSuccessAt)) / 1000)),
        markets: { total: Number(count?.total ?? 0), open: Number(count?.open ?? 0) },
      };
    }),
  };
}

/** A venue's newest finished catalog poll (its outcome, error and end), for callers outside the catalog; undefined: none yet. */
export async function lastFinishedPoll(db: Db, venue: string): Promise<{ outcome: string; error: string | null; finishedAt: Date | null } | undefined> {
  const [last] = await db
    .select({ outcome: ingestRuns.outcome, error: ingestRuns.error, finishedAt: ingestRuns.finishedAt })
    .from(ingestRuns)
    .where(and(eq(ingestRuns.venue, venue), ne(ingestRuns.outcome, "running")))
    .orderBy(desc(ingestRuns.startedAt))
    .limit(1);
  return last;
}
