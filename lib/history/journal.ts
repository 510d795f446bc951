import "server-only";
import type { Db } from "@/lib/db";
import { BARE_MODE_VENUE, degradingKinds, HEARTBEAT_STALE_MS, isSyntheticMode } from "@/lib/recorder/journal";
import { incidentsNewestFirst, journalWindow, journalWithin, latestRun, type JournalWindow, type RecorderIncidentRow, type RecorderRunRow } from "@/lib/recorder/journal-store";
import type { Span } from "./coverage-model";
import { encodeCursor } from "@/lib/input";
import { timeRange } from "./params";
import { incidentsPage, type IncidentPublic, type IncidentsQuery } from "./shapes";

/** Kinds that last (have an end); the others are instants. */
const spanKinds = new Set(["connection_lost", "lag", "back_pressure", "insert_failed"]);

/** Where a run's recording ended: its clean stop, now while it still beats, or its last beat (it died). */
export function runEnd(run: Pick<RecorderRunRow, "beatAt" | "stoppedAt">, now: number): number {
  if (run.stoppedAt !== null) return run.stoppedAt.getTime();
  const beat = run.beatAt.getTime();
  return now - beat <= HEARTBEAT_STALE_MS ? now : beat;
}

/** The journal's runs and incidents over a window are read by the recorder, their owner. */
export { journalWindow, journalWithin, type JournalWindow };

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
  const rows = await incidentsNewestFirst(db, {
    since: range.since,
    until: range.until,
    kind: query.kind,
    before: cursor === undefined ? undefined : { startedAt: cursor[1], id: cursor[2] },
    limit: query.limit + 1,
  });
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
  const run = await latestRun(db, venue);
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
