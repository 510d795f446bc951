import "server-only";
import type { Db } from "@/lib/db";
import { hourlyCoverage, type HourCondition } from "./coverage-model";
import { assetIncidents, journalWindow, runSpans, syntheticSpans, type JournalWindow } from "./journal";
import { runVenue } from "@/lib/recorder/journal";

/** The journal of one venue's recorder: its runs and their incidents. */
export function venueJournal(window: JournalWindow, venue: string): JournalWindow {
  const runs = window.runs.filter((run) => runVenue(run.mode) === venue);
  const ids = new Set(runs.map((run) => run.id));
  return { runs, incidents: window.incidents.filter((incident) => ids.has(incident.runId)) };
}

/**
 * The whole-archive condition of each UTC hour in [since, until) for one venue's recorder
 * (docs/history.md, "Coverage"): available, degraded, missing or synthetic, keyed by hour start.
 */
export async function venueHourConditions(db: Db, venue: string, since: number, until: number, now: number): Promise<Map<number, HourCondition>> {
  const window = venueJournal(await journalWindow(db, since, until), venue);
  const runs = runSpans(window, now);
  const synthetic = syntheticSpans(window, now);
  const { incidents } = assetIncidents(window, undefined, now);
  return new Map(hourlyCoverage({ since, until, now, runs, subscribed: [...runs, ...synthetic], synthetic, lost: [], incidents }).map((hour) => [hour.hour, hour.condition]));
}
