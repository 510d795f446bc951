import "server-only";
import type { Db } from "@/lib/db";
import type { HourCondition } from "@/lib/history/coverage-model";
import type { TickStores } from "@/lib/ticks";
import { recordedVenueTables, type RecordedVenue } from "@/lib/ticks/published";
import { venueHourConditions } from "./condition";
import { fileStats, openHourSummary } from "./files";
import { CLOSE_AFTER_MS, HOUR_MS, archiveFilePath } from "./hours";

/** One hour of a venue's archive as the manifest lists it. */
export interface ArchiveManifestHour {
  /** Hour start, ISO 8601 UTC. */
  hour: string;
  /** Distinct rows (timestamp, market, event_type, data) of the hour. */
  rows: number;
  /** Distinct assets with rows in the hour. */
  assets: number;
  /** SHA-256 (hex) of the hour's rows as lines, in the documented order; of the empty string when none. */
  checksum: string;
  condition: HourCondition;
  /** The hour's Parquet file; null while the hour is open, or when it has no rows. */
  file: { url: string; rows: number; bytes: number; checksum: string; sha256: string } | null;
}

/**
 * The hours of one UTC day of a venue's archive (up to now): rows, assets, the checksum of the
 * rows and the hour's condition; for each closed hour with rows, its file's URL, rows, size,
 * checksum (= its ETag) and SHA-256. An open hour's checksum is of the rows so far.
 */
export async function archiveDay(db: Db, stores: TickStores, venue: RecordedVenue, dayStart: number, now: number): Promise<ArchiveManifestHour[]> {
  const dayEnd = Math.min(dayStart + 24 * HOUR_MS, Math.ceil(now / HOUR_MS) * HOUR_MS);
  const conditions = await venueHourConditions(db, venue, dayStart, dayEnd, now);
  const table = recordedVenueTables[venue];
  const closedStarts: number[] = [];
  for (let start = dayStart; start < dayEnd && start + HOUR_MS + CLOSE_AFTER_MS <= now; start += HOUR_MS) closedStarts.push(start);
  const closedStats = await fileStats(stores, venue, table, closedStarts);
  const hours: ArchiveManifestHour[] = [];
  for (let start = dayStart; start < dayEnd; start += HOUR_MS) {
    const hour = { venue, table, start };
    const condition = conditions.get(start) ?? "missing";
    const stats = closedStats.get(start);
    if (stats === undefined) {
      const { checksum, rows, assets } = await openHourSummary(stores, hour);
      hours.push({ hour: new Date(start).toISOString(), rows, assets, checksum, condition, file: null });
      continue;
    }
    hours.push({
      hour: new Date(start).toISOString(),
      rows: stats.rows,
      assets: stats.assets,
      checksum: stats.checksum,
      condition,
      file: stats.rows === 0 ? null : { url: archiveFilePath(venue, start), rows: stats.rows, bytes: stats.bytes, checksum: stats.checksum, sha256: stats.sha256 },
    });
  }
  return hours;
}
