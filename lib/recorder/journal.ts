import "server-only";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { recorderIncidents, recorderRuns } from "@/lib/db/schema/recorder-runs";
import { errorFields, log } from "@/lib/log";
import type { TickWriter } from "./writer";

/** What the recorder writes about itself (docs/history.md, "Incidents"). */
export const incidentKinds = [
  "recorder_started",
  "recorder_stopped",
  "connection_opened",
  "connection_lost",
  "assets_added",
  "assets_dropped",
  "malformed_frame",
  "lag",
  "back_pressure",
  "insert_failed",
  "rows_dropped",
] as const;
export type IncidentKind = (typeof incidentKinds)[number];

/** Kinds that make an hour `degraded` for the assets they touch (the others are bookkeeping). */
export const degradingKinds: ReadonlySet<string> = new Set<IncidentKind>(["connection_lost", "malformed_frame", "lag", "back_pressure", "insert_failed", "rows_dropped"]);

/**
 * The `mode` of the journal run a synthetic demo history writes (`admin demo-ticks`): no recorder
 * ran, so coverage labels its hours `synthetic` instead of `available` or `missing`, and
 * /v0/status never shows it as the recorder.
 */
export const SYNTHETIC_MODE = "synthetic";

export const HEARTBEAT_MS = 15_000;
/** A run whose last beat is older than this is not running (it died without a clean stop). */
export const HEARTBEAT_STALE_MS = 3 * HEARTBEAT_MS;
/** Received minus venue time above this opens a `lag` incident; back under it closes it. */
export const LAG_THRESHOLD_MS = 10_000;
/** At most one `malformed_frame` incident per this many ms; the rest are counted on the next. */
const MALFORMED_EVERY_MS = 1_000;

/**
 * The `mode` column of a run says which recorder it was (no column of its own): the runs of the
 * first recorded venue (Polymarket) keep the bare mode they had before a second venue was recorded
 * (rows already written say so), every other venue's are `<venue>: <mode>` (`kalshi: in-process`).
 */
export const BARE_MODE_VENUE = "polymarket";
const VENUE_PREFIX = /^([^:]+): /;

export function runMode(mode: string, venue: string): string {
  return venue === BARE_MODE_VENUE ? mode : `${venue}: ${mode}`;
}

/** The SQL `LIKE` patterns of one venue's run modes: the bare ones (no `<venue>: ` prefix) for the first venue, else its prefix. */
export function runModePattern(venue: string): { like: string } | { notLike: string } {
  return venue === BARE_MODE_VENUE ? { notLike: "%: %" } : { like: `${venue}: %` };
}

/** Whether a synthetic demo history was written into these stores (its journal run, the one-command demo's check). */
export async function hasSyntheticRun(db: Db): Promise<boolean> {
  const [run] = await db.select({ id: recorderRuns.id }).from(recorderRuns).where(eq(recorderRuns.mode, SYNTHETIC_MODE)).limit(1);
  return run !== undefined;
}

/** A synthetic demo history's run, of any venue (`synthetic`, `kalshi: synthetic`: lib/demo/pair.ts). */
export function isSyntheticMode(mode: string): boolean {
  return mode === SYNTHETIC_MODE || mode.endsWith(`: ${SYNTHETIC_MODE}`);
}

/** The SQL `LIKE` pattern of every venue's synthetic run but the first venue's (which is SYNTHETIC_MODE itself). */
export const SYNTHETIC_MODE_PATTERN = `%: ${SYNTHETIC_MODE}`;

/** The venue a run recorded, from its `mode` (see runMode). */
export function runVenue(mode: string): string {
  return VENUE_PREFIX.exec(mode)?.[1] ?? BARE_MODE_VENUE;
}

export interface JournalOptions {
  mode: "in-process" | "separate process";
  /** The recorder's venue (lib/recorder/registry.ts id; default polymarket). */
  venue?: string;
  heartbeatMs?: number;
  lagThresholdMs?: number;
  now?: () => number;
}

interface Incident {
  kind: IncidentKind;
  message: string;
  assets?: readonly string[];
  detail?: Record<string, unknown>;
  startedAt?: number;
  endedAt?: number;
}

/**
 * The recorder's journal in PostgreSQL: a run row with a heartbeat (counters every 15 s) and
 * incidents. Writes go through one queue off the frame path; a failed write is logged and never
 * stops recording. Spans (a lost connection, lag, back-pressure, failing inserts) are written when
 * they open and get their `ended_at` when they close, so a run killed mid-span leaves them open.
 */
export class RecorderJournal {
  readonly runId = randomUUID();
  readonly #db: Db;
  readonly #options: Required<Omit<JournalOptions, "now" | "venue">> & { now: () => number };
  readonly #mode: string;
  #queue: Promise<void> = Promise.resolve();
  readonly #spans = new Map<string, { id: string; startedAt: number; detail: Record<string, unknown> }>();
  #timer: NodeJS.Timeout | undefined;
  #counters: () => Record<string, unknown> = () => ({});
  #lastMalformed = 0;
  #malformedPending = 0;
  #started = false;

  constructor(db: Db, options: JournalOptions) {
    this.#db = db;
    this.#options = { heartbeatMs: HEARTBEAT_MS, lagThresholdMs: LAG_THRESHOLD_MS, now: () => Date.now(), ...options };
    this.#mode = runMode(options.mode, options.venue ?? BARE_MODE_VENUE);
  }

  /** Writes the run row and `recorder_started`, then beats every heartbeatMs with `counters()`. */
  async start(counters: () => Record<string, unknown>): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    this.#counters = counters;
    const now = new Date(this.#options.now());
    this.#enqueue(async () => {
      await this.#db.insert(recorderRuns).values({ id: this.runId, host: hostname(), pid: process.pid, mode: this.#mode, startedAt: now, beatAt: now, counters: {} });
    });
    this.record({ kind: "recorder_started", message: `recorder started (${this.#mode}, pid ${process.pid})` });
    this.#timer = setInterval(() => this.beat(), this.#options.heartbeatMs);
    this.#timer.unref();
    await this.flush();
  }

  /** Closes open spans, writes `recorder_stopped` and the run's `stopped_at`. */
  async stop(): Promise<void> {
    if (!this.#started) return;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    for (const key of [...this.#spans.keys()]) this.#closeSpan(key);
    this.record({ kind: "recorder_stopped", message: "recorder stopped cleanly" });
    const now = new Date(this.#options.now());
    const counters = this.#counters();
    this.#enqueue(async () => {
      await this.#db.update(recorderRuns).set({ beatAt: now, stoppedAt: now, counters }).where(eq(recorderRuns.id, this.runId));
    });
    this.#started = false;
    await this.flush();
  }

  beat(): void {
    if (this.#malformedPending > 0) this.#flushMalformed();
    const now = new Date(this.#options.now());
    const counters = this.#counters();
    this.#enqueue(async () => {
      await this.#db.update(recorderRuns).set({ beatAt: now, counters }).where(eq(recorderRuns.id, this.runId));
    });
  }

  /** Resolves when every write queued so far is done (tests, shutdown). */
  async flush(): Promise<void> {
    await this.#queue;
  }

  record(incident: Incident): string {
    const id = randomUUID();
    const row = {
      id,
      runId: this.runId,
      kind: incident.kind,
      startedAt: new Date(incident.startedAt ?? this.#options.now()),
      endedAt: incident.endedAt === undefined ? null : new Date(incident.endedAt),
      assets: [...(incident.assets ?? [])],
      message: incident.message,
      detail: incident.detail ?? {},
    };
    this.#enqueue(async () => {
      await this.#db.insert(recorderIncidents).values(row);
    });
    return id;
  }

  // Hooks the recorder calls.

  connectionOpened(connection: number, assets: readonly string[], reconnect: boolean): void {
    const lost = this.#spans.get(`connection:${connection}`);
    if (reconnect && lost !== undefined) this.#closeSpan(`connection:${connection}`, {}, "gapMs");
    this.record({ kind: "connection_opened", message: `connection ${connection} ${reconnect ? "reopened and resubscribed" : "opened"} (${assets.length} assets)`, assets, detail: { connection, reconnect } });
  }

  connectionLost(connection: number, assets: readonly string[]): void {
    if (this.#spans.has(`connection:${connection}`)) return;
    this.#openSpan(`connection:${connection}`, { kind: "connection_lost", message: `connection ${connection} lost; its ${assets.length} assets are not recorded until it resubscribes`, assets, detail: { connection } });
  }

  assetsChanged(added: readonly string[], dropped: readonly string[]): void {
    if (added.length > 0) this.record({ kind: "assets_added", message: `${added.length} assets subscribed`, assets: added });
    if (dropped.length > 0) this.record({ kind: "assets_dropped", message: `${dropped.length} assets unsubscribed`, assets: dropped });
  }

  /** After every frame: malformed objects in it, and the recorder's current lag. */
  frame(malformed: number, lagMs: number | undefined): void {
    if (malformed > 0) {
      this.#malformedPending += malformed;
      if (this.#options.now() - this.#lastMalformed >= MALFORMED_EVERY_MS) this.#flushMalformed();
    }
    if (lagMs === undefined) return;
    if (lagMs > this.#options.lagThresholdMs) {
      if (!this.#spans.has("lag")) this.#openSpan("lag", { kind: "lag", message: `lag above ${this.#options.lagThresholdMs} ms`, detail: { lagMs } });
    } else if (this.#spans.has("lag")) this.#closeSpan("lag", { lastLagMs: lagMs });
  }

  backPressure(paused: boolean): void {
    if (paused) this.#openSpan("back_pressure", { kind: "back_pressure", message: "insert buffer above its high-water mark: reading paused" });
    else this.#closeSpan("back_pressure");
  }

  /** An insert failed (the batch stays buffered and is retried) or succeeded (closes a failure span). */
  insertResult(ok: boolean, rows: number, error?: unknown): void {
    const span = this.#spans.get("insert_failed");
    if (ok) {
      if (span !== undefined) this.#closeSpan("insert_failed");
      return;
    }
    if (span !== undefined) {
      span.detail.retries = Number(span.detail.retries ?? 0) + 1;
      return;
    }
    const reason = error instanceof Error ? error.message.slice(0, 200) : "insert failed";
    this.#openSpan("insert_failed", { kind: "insert_failed", message: `tick insert failed (${rows} rows stay buffered and are retried): ${reason}`, detail: { rows, retries: 0 } });
  }

  /** Follows the writer: back-pressure pauses, failed inserts and their retries, dropped rows. */
  attachWriter(writer: TickWriter): void {
    writer.onBackPressure((paused) => this.backPressure(paused));
    writer.onInsert((event) => {
      if (event.kind === "dropped") this.rowsDropped(event.rows);
      else if (event.kind === "failed") this.insertResult(false, event.rows, event.error);
      else this.insertResult(true, event.rows);
    });
  }

  rowsDropped(count: number): void {
    this.record({ kind: "rows_dropped", message: `insert buffer full: ${count} oldest rows dropped`, detail: { rows: count } });
  }

  #flushMalformed(): void {
    const count = this.#malformedPending;
    this.#malformedPending = 0;
    this.#lastMalformed = this.#options.now();
    this.record({ kind: "malformed_frame", message: `${count} malformed market-channel objects`, detail: { objects: count } });
  }

  #openSpan(key: string, incident: Incident): void {
    if (this.#spans.has(key)) return;
    const startedAt = this.#options.now();
    const detail = { ...incident.detail };
    const id = this.record({ ...incident, startedAt, detail });
    this.#spans.set(key, { id, startedAt, detail });
  }

  /** Ends a span now; `durationKey` names a detail field that gets its length in ms (a lost connection's gap). */
  #closeSpan(key: string, extra: Record<string, unknown> = {}, durationKey?: string): void {
    const span = this.#spans.get(key);
    if (span === undefined) return;
    this.#spans.delete(key);
    const endedAt = new Date(this.#options.now());
    const detail = { ...span.detail, ...extra, ...(durationKey === undefined ? {} : { [durationKey]: endedAt.getTime() - span.startedAt }) };
    this.#enqueue(async () => {
      await this.#db.update(recorderIncidents).set({ endedAt, detail }).where(eq(recorderIncidents.id, span.id));
    });
  }

  #enqueue(write: () => Promise<void>): void {
    this.#queue = this.#queue.then(write).catch((error: unknown) => {
      log.warn("recorder journal write failed", errorFields(error));
    });
  }
}
