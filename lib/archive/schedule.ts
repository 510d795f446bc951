import "server-only";
import { errorFields, log } from "@/lib/log";
import { getTickStores, type TickStores } from "@/lib/ticks";
import { recordedVenueTables, type RecordedVenue } from "@/lib/ticks/published";
import { fileStats } from "./files";
import { CLOSE_AFTER_MS, HOUR_MS } from "./hours";
import { outcomesFileStats } from "./outcomes";
import { processGlobals } from "@/lib/process-globals.mjs";

/** How often the closed hours are checked, and how far back. */
const EVERY_MS = 5 * 60_000;
const LOOKBACK_HOURS = 24;
const DAY_MS = 24 * HOUR_MS;
/** The first preparation after start. */
const FIRST_RUN_MS = 5_000;

/**
 * Builds the stats of the last 24 closed hours and the rest of the previous UTC day of every
 * recorded venue ahead of the first request (the first manifest of a day would otherwise build
 * each hour's, about 5 s per 1M rows):
 * hours already built and unchanged cost two small reads; and the last closed day's outcomes file.
 * Returns the hours with rows.
 */
export async function prepareRecentFiles(stores: TickStores, now = Date.now()): Promise<number> {
  const lastClosed = Math.floor((now - CLOSE_AFTER_MS) / HOUR_MS) * HOUR_MS - HOUR_MS;
  // The last 24 closed hours, and the rest of the previous UTC day (the Archive page's first click).
  const previousDay = Math.floor(lastClosed / DAY_MS) * DAY_MS - DAY_MS;
  const first = Math.min(lastClosed - (LOOKBACK_HOURS - 1) * HOUR_MS, previousDay);
  const starts = Array.from({ length: (lastClosed - first) / HOUR_MS + 1 }, (_, i) => first + i * HOUR_MS);
  let hours = 0;
  for (const venue of Object.keys(recordedVenueTables) as RecordedVenue[]) {
    const stats = await fileStats(stores, venue, recordedVenueTables[venue], starts);
    for (const hour of stats.values()) if (hour.rows > 0) hours += 1;
    await outcomesFileStats(stores, venue, Math.floor((now - CLOSE_AFTER_MS) / (24 * HOUR_MS)) * 24 * HOUR_MS - 24 * HOUR_MS);
  }
  return hours;
}

const globalStore = processGlobals<{ __brierArchiveSchedule?: { stop: () => void } }>();

/** Runs prepareRecentFiles every 5 minutes in this process (the server with embedded stores). Started once. */
export function startArchiveSchedule(): { stop: () => void } {
  if (globalStore.__brierArchiveSchedule !== undefined) return globalStore.__brierArchiveSchedule;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const run = async () => {
    if (stopped) return;
    try {
      await prepareRecentFiles(await getTickStores());
    } catch (error) {
      log.error("archive files could not be prepared", errorFields(error));
    }
    if (!stopped) {
      timer = setTimeout(() => void run(), EVERY_MS);
      timer.unref();
    }
  };
  const handle = {
    stop: () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      globalStore.__brierArchiveSchedule = undefined;
    },
  };
  globalStore.__brierArchiveSchedule = handle;
  // Soon after start, so the last day's files are built (or building, a manifest then waits on the
  // same build) before anyone opens the Archive page; every 5 minutes after that.
  timer = setTimeout(() => void run(), FIRST_RUN_MS);
  timer.unref();
  return handle;
}
