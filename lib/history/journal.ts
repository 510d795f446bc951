import "server-only";
import { and, arrayOverlaps, desc, eq, gte, inArray, isNull, like, lt, ne, notLike, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { recorderIncidents, recorderRuns, type RecorderIncidentRow, type RecorderRunRow } from "@/lib/db/schema/recorder-runs";
import { BARE_MODE_VENUE, degradingKinds, HEARTBEAT_STALE_MS, isSyntheticMode, runModePattern, SYNTHETIC_MODE, SYNTHETIC_MODE_PATTERN } from "@/lib/recorder/journal";
import type { Span } from "./coverage-model";
import { encodeCursor } from "@/lib/input";
import { timeRange } from "./params";
import { incidentsPage, type IncidentPublic, type IncidentsQuery } from "./shapes";

/** Kinds that last (have an end); the others are instants. */
const spanKinds = new Set(["connection_lost", "lag", "back_pressure", "insert_failed"]);

/** Runs of one venue's recorder (lib/recorder/journal.ts runMode: every venue's modes but the first's start with `<venue>: `). */
export function runsOfVenue(venue: string) {
  const pattern = runModePattern(venue);
  return "like" in pattern ? like(recorderRuns.mode, pattern.like) : notLike(recorderRuns.mode, pattern.notLike);
}

/** Where a run's recording ended: its clean stop, now while it still beats, or its last beat (it died). */
export function runEnd(run: Pick<RecorderRunRow, "beatAt" | "stoppedAt">, now: number): number {
  if (run.stoppedAt !== null) return run.stoppedAt.getTime();
  const beat = run.beatAt.getTime();
  return now - beat <= HEARTBEAT_STALE_MS ? now : beat;
}

export interface JournalWindow {
  runs: RecorderRunRow[];
  /** Incidents of those runs (all of their subscription changes, the others overlapping the window). */
  incidents: RecorderIncidentRow[];
}

/** The runs that overlap [since, until) and their incidents; `assets` narrows asset-scoped incidents. */
export async function journalWindow(db: Db, since: number, until: number, assets?: readonly string[]): Promise<JournalWindow> {
  const runs = await db
    .select()
    .from(recorderRuns)
    .where(and(lt(recorderRuns.startedAt, new Date(until)), sql`coalesce(${recorderRuns.stoppedAt}, ${recorderRuns.beatAt}) >= ${new Date(since - HEARTBEAT_STALE_MS).toISOString()}::timestamptz`));
  if (runs.length === 0) return { runs, incidents: [] };
  const touches = assets === undefined ? undefined : or(eq(sql`cardinality(${recorderIncidents.assets})`, 0), arrayOverlaps(recorderIncidents.assets, [...assets]));
  const incidents = await db
    .select()
    .from(recorderIncidents)
    .where(
      and(
        inArray(recorderIncidents.runId, runs.map((run) => run.id)),
        touches,
        or(
          inArray(recorderIncidents.kind, ["assets_added", "assets_dropped"]),
          and(lt(recorderIncidents.startedAt, new Date(until)), or(isNull(recorderIncidents.endedAt), gte(recorderIncidents.endedAt, new Date(since)))),
        ),
      ),
    )
    .orderBy(recorderIncidents.startedAt);
  return { runs, incidents };
}

/** When a recorder ran (the demo's synthetic runs are not recorders: see syntheticSpans). */
export function runSpans(window: JournalWindow, now: number): Span[] {
  return window.runs.filter((run) => !isSyntheticMode(run.mode)).map((run) => ({ start: run.startedAt.getTime(), end: runEnd(run, now) }));
}

/** The spans a synthetic demo history covers (lib/demo/ticks.ts recordDemoRun). */
export function syntheticSpans(window: JournalWindow, now: number): Span[] {
  return window.runs.filter((run) => isSyntheticMode(run.mode)).map((run) => ({ start: run.startedAt.getTime(), end: runEnd(run, now) }));
}

/** The spans `asset` was subscribed: per run, from each assets_added to the next assets_dropped or the run's end. */
export function subscribedSpans(window: JournalWindow, asset: string, now: number): Span[] {
  const out: Span[] = [];
  for (const run of window.runs) {
    const end = runEnd(run, now);
    let open: number | undefined;
    for (const incident of window.incidents) {
      if (incident.runId !== run.id || !incident.assets.includes(asset)) continue;
      if (incident.kind === "assets_added" && open === undefined) open = incident.startedAt.getTime();
      if (incident.kind === "assets_dropped" && open !== undefined) {
        out.push({ start: open, end: incident.startedAt.getTime() });
        open = undefined;
      }
    }
    if (open !== undefined) out.push({ start: open, end });
  }
  return out;
}

function incidentSpan(incident: RecorderIncidentRow, runEnds: ReadonlyMap<string, number>): Span {
  const start = incident.startedAt.getTime();
  if (!spanKinds.has(incident.kind)) return { start, end: start };
  return { start, end: incident.endedAt?.getTime() ?? runEnds.get(incident.runId) ?? start };
}

/** An asset's lost-connection spans and degrading incidents (asset undefined: every asset's). */
export function assetIncidents(window: JournalWindow, asset: string | undefined, now: number): { lost: Span[]; incidents: Span[] } {
  const runEnds = new Map(window.runs.map((run) => [run.id, runEnd(run, now)]));
  const lost: Span[] = [];
  const incidents: Span[] = [];
  for (const incident of window.incidents) {
    if (!degradingKinds.has(incident.kind)) continue;
    if (asset !== undefined && incident.assets.length > 0 && !incident.assets.includes(asset)) continue;
    const span = incidentSpan(incident, runEnds);
    incidents.push(span);
    if (incident.kind === "connection_lost" && asset !== undefined) lost.push(span);
  }
  return { lost, incidents };
}

/** GET /v0/incidents: what happened to the recorder, newest first. */
export async function listIncidents(db: Db, query: IncidentsQuery, now = Date.now()) {
  const range = timeRange(query.since, query.until, 7 * 86_400_000, now + 1);
  const cursor = query.cursor;
  const rows = await db
    .select()
    .from(recorderIncidents)
    .where(
      and(
        gte(recorderIncidents.startedAt, new Date(range.since)),
        lt(recorderIncidents.startedAt, new Date(range.until)),
        query.kind === undefined ? undefined : eq(recorderIncidents.kind, query.kind),
        cursor === undefined
          ? undefined
          : sql`(${recorderIncidents.startedAt}, ${recorderIncidents.id}) < (${new Date(cursor[1]).toISOString()}::timestamptz, ${cursor[2]}::uuid)`,
      ),
    )
    .orderBy(desc(recorderIncidents.startedAt), desc(recorderIncidents.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  const data: IncidentPublic[] = page.map((row) => ({
    id: row.id,
    runId: row.runId,
    kind: row.kind,
    startedAt: row.startedAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
    durationMs: row.endedAt === null ? null : row.endedAt.getTime() - row.startedAt.getTime(),
    degrading: degradingKinds.has(row.kind),
    assets: row.assets.slice(0, 50),
    message: row.message,
    detail: { ...row.detail, ...(row.assets.length > 50 ? { assetCount: row.assets.length } : {}) },
  }));
  const nextCursor = rows.length > query.limit && last !== undefined ? encodeCursor(["i", last.startedAt.getTime(), last.id]) : null;
  return incidentsPage.parse({ data, meta: { count: data.length, limit: query.limit, nextCursor } });
}

/** The newest recorder run, for /v0/status: is a recorder running anywhere (its own process included)? */
export async function latestRecorderRun(db: Db, venue: string = BARE_MODE_VENUE, now = Date.now()): Promise<Record<string, unknown> | null> {
  const [run] = await db
    .select()
    .from(recorderRuns)
    .where(and(runsOfVenue(venue), ne(recorderRuns.mode, SYNTHETIC_MODE), notLike(recorderRuns.mode, SYNTHETIC_MODE_PATTERN)))
    .orderBy(desc(recorderRuns.beatAt))
    .limit(1);
  if (run === undefined) return null;
  const running = run.stoppedAt === null && now - run.beatAt.getTime() <= HEARTBEAT_STALE_MS;
  return {
    runId: run.id,
    mode: run.mode,
    host: run.host,
    pid: run.pid,
    running,
    state: running ? "running" : run.stoppedAt !== null ? "stopped" : "lost (no heartbeat)",
    startedAt: run.startedAt.toISOString(),
    lastHeartbeatAt: run.beatAt.toISOString(),
    stoppedAt: run.stoppedAt?.toISOString() ?? null,
    counters: run.counters,
  };
}
