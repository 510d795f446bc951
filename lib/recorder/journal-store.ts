import "server-only";
import { randomUUID } from "node:crypto";
import { and, arrayOverlaps, desc, eq, gte, inArray, isNull, like, lt, ne, notLike, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { recorderIncidents, recorderRuns, type RecorderIncidentRow, type RecorderRunRow } from "@/lib/db/schema/recorder-runs";
import { HEARTBEAT_STALE_MS, runMode, runModePattern, SYNTHETIC_MODE, SYNTHETIC_MODE_PATTERN, type IncidentKind } from "./journal";

/**
 * The recorder journal's query functions for other folders (lib/recorder owns `recorder_runs` and
 * `recorder_incidents`: docs/architecture.md, "Layers and folders"): history and status read runs
 * and incidents here, the demo writes its synthetic runs here. The recorder's own writes are
 * RecorderJournal (./journal.ts).
 */
export type { RecorderIncidentRow, RecorderRunRow };

/** Runs of one venue's recorder (./journal.ts runMode: every venue's modes but the first's start with `<venue>: `). */
function runsOfVenue(venue: string) {
  const pattern = runModePattern(venue);
  return "like" in pattern ? like(recorderRuns.mode, pattern.like) : notLike(recorderRuns.mode, pattern.notLike);
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

/**
 * What `journalWindow(db, since, until, assets)` answers, taken from a journal read for a wider
 * window (`wide` covers [since, until) and `assets`): the same runs and incidents by the same rules
 * as its query, without another read. A window's parts (lib/spreads: a pair's closed days) read
 * the journal once for all of them.
 */
export function journalWithin(wide: JournalWindow, since: number, until: number): JournalWindow {
  const runs = wide.runs.filter((run) => run.startedAt.getTime() < until && (run.stoppedAt ?? run.beatAt).getTime() >= since - HEARTBEAT_STALE_MS);
  const ids = new Set(runs.map((run) => run.id));
  const incidents = wide.incidents.filter(
    (incident) =>
      ids.has(incident.runId) &&
      (incident.kind === "assets_added" ||
        incident.kind === "assets_dropped" ||
        (incident.startedAt.getTime() < until && (incident.endedAt === null || incident.endedAt.getTime() >= since))),
  );
  return { runs, incidents };
}

export interface IncidentsFilter {
  /** Incidents started in [since, until) (ms). */
  since: number;
  until: number;
  kind?: string;
  /** Keyset: only incidents before this one in (startedAt desc, id desc) order. */
  before?: { startedAt: number; id: string };
  limit: number;
}

/** Incidents newest first (startedAt, then id, descending), at most `limit`. */
export async function incidentsNewestFirst(db: Db, filter: IncidentsFilter): Promise<RecorderIncidentRow[]> {
  const { before } = filter;
  return db
    .select()
    .from(recorderIncidents)
    .where(
      and(
        gte(recorderIncidents.startedAt, new Date(filter.since)),
        lt(recorderIncidents.startedAt, new Date(filter.until)),
        filter.kind === undefined ? undefined : eq(recorderIncidents.kind, filter.kind),
        before === undefined
          ? undefined
          : sql`(${recorderIncidents.startedAt}, ${recorderIncidents.id}) < (${new Date(before.startedAt).toISOString()}::timestamptz, ${before.id}::uuid)`,
      ),
    )
    .orderBy(desc(recorderIncidents.startedAt), desc(recorderIncidents.id))
    .limit(filter.limit);
}

/** The newest run of a venue's recorder by heartbeat, synthetic demo runs left out. */
export async function latestRun(db: Db, venue: string): Promise<RecorderRunRow | undefined> {
  const [run] = await db
    .select()
    .from(recorderRuns)
    .where(and(runsOfVenue(venue), ne(recorderRuns.mode, SYNTHETIC_MODE), notLike(recorderRuns.mode, SYNTHETIC_MODE_PATTERN)))
    .orderBy(desc(recorderRuns.beatAt))
    .limit(1);
  return run;
}

/** An incident written with a synthetic run (lib/demo: its subscription, a gap). */
export interface SyntheticIncident {
  kind: IncidentKind;
  startedAt: Date;
  endedAt?: Date;
  assets: readonly string[];
  message: string;
  detail?: Record<string, unknown>;
}

/** A journal run no recorder made: the demo's synthetic histories and live demo (mode `synthetic` of its venue, ./journal.ts runMode). */
export interface SyntheticRun {
  venue: string;
  host: string;
  pid: number;
  startedAt: Date;
  beatAt: Date;
  /** Unset while the run goes on (the live demo beats it: beatRun). */
  stoppedAt?: Date;
  counters: Record<string, unknown>;
  /** Its incidents, the first the `assets_added` of what it wrote. */
  incidents: readonly SyntheticIncident[];
}

/** Writes a synthetic run and its incidents; returns the run's id. */
export async function writeSyntheticRun(db: Db, run: SyntheticRun): Promise<string> {
  const id = randomUUID();
  const { venue, incidents, ...row } = run;
  await db.insert(recorderRuns).values({ id, ...row, mode: runMode(SYNTHETIC_MODE, venue) });
  for (const incident of incidents) await db.insert(recorderIncidents).values({ runId: id, ...incident, assets: [...incident.assets] });
  return id;
}

/** A run's heartbeat at `at`; with `stopped`, its clean stop too. */
export async function beatRun(db: Db, runId: string, at: Date, stopped = false): Promise<void> {
  await db
    .update(recorderRuns)
    .set(stopped ? { beatAt: at, stoppedAt: at } : { beatAt: at })
    .where(eq(recorderRuns.id, runId));
}
