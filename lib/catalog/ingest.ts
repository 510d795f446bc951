import "server-only";
import { and, eq } from "drizzle-orm";
import type { UnifiedEvent, UnifiedMarket } from "pmxt-core";
import { config } from "@/lib/config";
import type { Db } from "@/lib/db";
import { ingestRuns } from "@/lib/db/schema/ingest-runs";
import { errorFields, log } from "@/lib/log";
import { createExchange, type Exchange } from "@/lib/venues/factory";
import { acquireVenueLease } from "./lease";
import { isClosedStatus, normalizeEvent, type NormalizedEvent } from "./normalize";
import { markMarketsClosed, unseenOpenMarkets, upsertCatalog } from "./store";
import { catalogVenues } from "./venues";

export type IngestTrigger = "schedule" | "cron" | "cli" | "test";

export interface IngestRunSummary {
  venue: string;
  /** Row id in ingest_runs; null when the run was skipped (another run of the venue holds the lease). */
  runId: string | null;
  trigger: IngestTrigger;
  outcome: "succeeded" | "failed" | "skipped";
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  attempts: number;
  eventsSeen: number;
  marketsSeen: number;
  /** Markets this run marked closed after a direct lookup confirmed it. */
  marketsClosed: number;
  error: string | null;
}

export interface IngestProgress {
  venue: string;
  phase: "fetching" | "upserting" | "closing" | "done" | "failed" | "skipped";
  done: number;
  total?: number;
}

export interface IngestOptions {
  venues?: string[];
  onProgress?: (p: IngestProgress) => void;
  trigger?: IngestTrigger;
  /** Attempts per venue fetch (default 3), with jittered exponential backoff from `backoffMs` (default 1000). */
  attempts?: number;
  backoffMs?: number;
  /** Longest one fetch attempt of one venue may take (default 8 × VENUE_TIMEOUT_MS). */
  attemptTimeoutMs?: number;
  /** Direct lookups per run of open markets the listing no longer shows (default 50). */
  closeChecks?: number;
  /** Builds the venue instance (default lib/venues/factory createExchange). */
  exchangeFor?: (venue: string) => Exchange;
  /** What follows a poll (price history, matching), wired by lib/jobs; the catalog knows nothing of it. */
  hooks?: IngestHooks;
}

/**
 * Work that follows a poll. The catalog calls it and never depends on what it does: a hook that
 * throws is logged and never fails the poll.
 */
export interface IngestHooks {
  /** After one venue's markets are stored, with the poll's events and its start time (epoch ms). */
  afterUpsert?: (events: readonly NormalizedEvent[], polledAtMs: number) => Promise<unknown>;
  /** After every requested venue was polled, when at least one poll succeeded. */
  afterIngest?: (db: Db, runs: readonly IngestRunSummary[]) => Promise<unknown>;
}

async function runHook(name: string, hook: () => Promise<unknown>): Promise<void> {
  try {
    await hook();
  } catch (error) {
    log.error("catalog ingestion hook failed", { hook: name, ...errorFields(error) });
  }
}

class DeadlineError extends Error {
  override name = "DeadlineError";
}

function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A short, safe description of a failure for ingest_runs.error and /v0/status. */
function describeError(error: unknown): string {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return message.replace(/\s+/g, " ").slice(0, 500);
}

/** Fetches the venue's whole public catalog through pmxt-core, retrying with jittered backoff. */
async function fetchVenueEvents(
  venue: string,
  options: Required<Pick<IngestOptions, "attempts" | "backoffMs" | "attemptTimeoutMs" | "exchangeFor">>,
  onAttempt: (attempt: number) => void,
): Promise<UnifiedEvent[]> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= options.attempts; attempt += 1) {
    onAttempt(attempt);
    try {
      // A fresh instance per attempt: a timed-out attempt may still be running in the background.
      const exchange = options.exchangeFor(venue);
      const events = await withDeadline(exchange.fetchEvents(), options.attemptTimeoutMs, `${venue} fetchEvents`);
      if (!Array.isArray(events)) throw new Error(`${venue} fetchEvents returned ${typeof events}, not a list`);
      return events;
    } catch (error) {
      lastError = error;
      log.debug("catalog fetch attempt failed", { venue, attempt, error: describeError(error) });
      if (attempt < options.attempts) {
        const base = options.backoffMs * 2 ** (attempt - 1);
        await sleep(base / 2 + Math.random() * base);
      }
    }
  }
  throw lastError;
}

/**
 * Direct lookups of open markets the listing no longer shows; only a venue answer that says
 * closed/resolved closes them. A failed lookup or a missing market is no evidence.
 */
async function confirmClosures(db: Db, venue: string, seen: readonly string[], exchange: Exchange, limit: number): Promise<number> {
  if (limit <= 0) return 0;
  const candidates = await unseenOpenMarkets(db, venue, seen, limit);
  const closed: Array<{ id: string; eventId: string; status: string | null }> = [];
  const queue = [...candidates];
  const worker = async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      try {
        const found: UnifiedMarket[] = await withDeadline(
          exchange.fetchMarkets({ marketId: next.venueMarketId }),
          config.venueTimeoutMs,
          `${venue} fetchMarkets(${next.venueMarketId})`,
        );
        const market = found.find((m) => m.marketId === next.venueMarketId);
        if (market !== undefined && isClosedStatus(market.status)) {
          closed.push({ id: next.id, eventId: next.eventId, status: market.status ?? null });
        }
      } catch (error) {
        log.debug("catalog closure lookup failed", { venue, market: next.venueMarketId, error: describeError(error) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, candidates.length) }, worker));
  await markMarketsClosed(db, closed);
  return closed.length;
}

/**
 * Each venue's reachability as this process's polls last found it. The log says when a venue
 * becomes unreachable and when it answers again, once each (README, "Quick start"): a venue down
 * for an hour is two lines, not one per attempt of every poll. Every run's outcome and error stay
 * in ingest_runs (/v0/status, the Status page).
 */
const reachability = new Map<string, boolean>();

function noteReachability(venue: string, reachable: boolean, error?: string | null): void {
  const before = reachability.get(venue);
  reachability.set(venue, reachable);
  if (!reachable && before !== false) log.warn("venue unreachable", { venue, error, next: "polled on schedule; one line when it answers again" });
  else if (reachable && before === false) log.info("venue reachable again", { venue });
}

/** Polls one venue into the catalog, recording the run. Never throws: failures end up in the summary. */
export async function pollVenue(db: Db, venue: string, options: IngestOptions = {}): Promise<IngestRunSummary> {
  const trigger = options.trigger ?? "cli";
  const attemptTimeoutMs = options.attemptTimeoutMs ?? config.venueTimeoutMs * 8;
  const attempts = options.attempts ?? 3;
  const backoffMs = options.backoffMs ?? 1000;
  const exchangeFor = options.exchangeFor ?? ((key: string) => createExchange(key));
  const progress = (p: Omit<IngestProgress, "venue">) => options.onProgress?.({ venue, ...p });
  const started = new Date();
  const summary: IngestRunSummary = {
    venue,
    runId: null,
    trigger,
    outcome: "skipped",
    startedAt: started.toISOString(),
    finishedAt: started.toISOString(),
    durationMs: 0,
    attempts: 0,
    eventsSeen: 0,
    marketsSeen: 0,
    marketsClosed: 0,
    error: null,
  };
  // A short, heartbeated lease (lib/catalog/lease.ts): a crashed holder blocks the venue for seconds, not minutes.
  const lease = await acquireVenueLease(db, venue);
  if (lease === undefined) {
    summary.error = "another ingestion of this venue is running";
    progress({ phase: "skipped", done: 0 });
    return summary;
  }
  try {
    // Holding the lease, no other run of this venue is alive: a `running` row left by a crashed
    // process is closed as `abandoned` so /v0/status does not show it running forever.
    await db
      .update(ingestRuns)
      .set({ outcome: "abandoned", finishedAt: started })
      .where(and(eq(ingestRuns.venue, venue), eq(ingestRuns.outcome, "running")));
    const [run] = await db
      .insert(ingestRuns)
      .values({ venue, trigger, outcome: "running", startedAt: started })
      .returning({ id: ingestRuns.id });
    summary.runId = run?.id ?? null;
    try {
      progress({ phase: "fetching", done: 0 });
      const fetched = await fetchVenueEvents(venue, { attempts, backoffMs, attemptTimeoutMs, exchangeFor }, (n) => {
        summary.attempts = n;
        // /v0/status shows a running poll's attempts as they start, not 0 until it ends.
        const runId = summary.runId;
        if (runId !== null) void db.update(ingestRuns).set({ attempts: n }).where(eq(ingestRuns.id, runId)).catch(() => undefined);
      });
      const normalized = fetched
        .map((event) => normalizeEvent(venue, event, started))
        .filter((e): e is NormalizedEvent => e !== null);
      const total = normalized.reduce((sum, e) => sum + e.markets.length, 0);
      summary.eventsSeen = normalized.length;
      progress({ phase: "upserting", done: 0, total });
      summary.marketsSeen = await upsertCatalog(db, normalized, (done) => progress({ phase: "upserting", done, total }));
      const afterUpsert = options.hooks?.afterUpsert;
      if (afterUpsert !== undefined) await runHook("afterUpsert", () => afterUpsert(normalized, started.getTime()));
      progress({ phase: "closing", done: summary.marketsSeen, total });
      const seen = normalized.flatMap((e) => e.markets.map((m) => m.id));
      summary.marketsClosed = await confirmClosures(db, venue, seen, exchangeFor(venue), options.closeChecks ?? 50);
      summary.outcome = "succeeded";
      noteReachability(venue, true);
      progress({ phase: "done", done: summary.marketsSeen, total });
    } catch (error) {
      summary.outcome = "failed";
      summary.error = describeError(error);
      // A venue being down is expected operation, not a bug: no stack, just what failed, once.
      noteReachability(venue, false, summary.error);
      progress({ phase: "failed", done: summary.marketsSeen });
    }
    const finished = new Date();
    summary.finishedAt = finished.toISOString();
    summary.durationMs = finished.getTime() - started.getTime();
    if (summary.runId !== null) {
      await db
        .update(ingestRuns)
        .set({
          finishedAt: finished,
          outcome: summary.outcome,
          attempts: summary.attempts,
          eventsSeen: summary.eventsSeen,
          marketsSeen: summary.marketsSeen,
          marketsClosed: summary.marketsClosed,
          error: summary.error,
        })
        .where(eq(ingestRuns.id, summary.runId));
    }
  } finally {
    await lease.release();
  }
  return summary;
}

/**
 * Polls every requested venue (default: the configured catalog venues) concurrently; one venue
 * failing, hanging or answering garbage never delays or affects the others. Overlapping runs of
 * one venue (another process, another instance) are skipped, not queued.
 */
export async function ingestVenues(db: Db, options: IngestOptions = {}): Promise<IngestRunSummary[]> {
  const venues = [...new Set(options.venues ?? catalogVenues())];
  const summaries = await Promise.all(
    venues.map(async (venue) => {
      try {
        return await pollVenue(db, venue, options);
      } catch (error) {
        // Only bookkeeping (the lease or run row) can land here: report it as this venue's failure.
        log.error("catalog ingestion bookkeeping failed", { venue, ...errorFields(error) });
        const now = new Date().toISOString();
        return {
          venue,
          runId: null,
          trigger: options.trigger ?? "cli",
          outcome: "failed",
          startedAt: now,
          finishedAt: now,
          durationMs: 0,
          attempts: 0,
          eventsSeen: 0,
          marketsSeen: 0,
          marketsClosed: 0,
          error: describeError(error),
        } satisfies IngestRunSummary;
      }
    }),
  );
  // A scheduled poll is routine (every minute per venue): debug; a venue's reachability changes are logged once each (noteReachability).
  (options.trigger === "schedule" ? log.debug : log.info)("catalog ingestion finished", {
    runs: summaries.map((s) => `${s.venue}:${s.outcome}:${s.marketsSeen}`).join(" "),
  });
  const afterIngest = options.hooks?.afterIngest;
  if (afterIngest !== undefined && summaries.some((s) => s.outcome === "succeeded")) {
    await runHook("afterIngest", () => afterIngest(db, summaries));
  }
  return summaries;
}
