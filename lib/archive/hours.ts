import { z } from "zod";
import { AppError, InvalidParameterError } from "@/lib/errors";
import { parseInput } from "@/lib/input";
import { isRecordedVenue, recordedVenueTables, type RecordedVenue } from "@/lib/ticks/published";

export const HOUR_MS = 3_600_000;

/**
 * An hour is closed, and its file served, this long after it ends: the recorders hand every row to
 * the engine within 500 ms of receiving it (lib/recorder/writer.ts), and a venue frame more than a
 * minute late is a lag incident, not a row the file should change for later.
 */
export const CLOSE_AFTER_MS = 2 * 60_000;

export const archiveVenue = z
  .string()
  .refine(isRecordedVenue, `venue must be one of ${Object.keys(recordedVenueTables).join(", ")}`)
  .transform((venue) => venue as RecordedVenue);

export const archiveDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "date must be a UTC day, YYYY-MM-DD")
  .refine((text) => Number.isFinite(Date.parse(`${text}T00:00:00Z`)) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text), "date is not a calendar day");

/** The file name of a day's outcome changes. */
export const OUTCOMES_FILE = "outcomes.parquet";

/** `HH.parquet`, the file name of an hour, or the day's outcomes file. */
const archiveFile = z.string().regex(/^(([01]\d|2[0-3])\.parquet|outcomes\.parquet)$/, "the file is HH.parquet, HH = 00 to 23, or outcomes.parquet");

export interface ArchiveHour {
  venue: RecordedVenue;
  table: string;
  /** Hour start, epoch ms. */
  start: number;
}

/** A day's outcomes file: the venue and the day's start (epoch ms). */
export interface ArchiveOutcomesDay {
  venue: RecordedVenue;
  dayStart: number;
}

/** The path parameters of /v0/archive/{venue}/{date}/{HH}.parquet (an hour) or …/outcomes.parquet (the day's outcomes), checked. */
export function parseArchiveFile(params: { venue?: unknown; date?: unknown; file?: unknown }): { hour: ArchiveHour } | { outcomes: ArchiveOutcomesDay } {
  const venue = parseInput(archiveVenue, params.venue, "venue");
  const date = parseInput(archiveDate, params.date, "date");
  const file = parseInput(archiveFile, params.file, "hour");
  if (file === OUTCOMES_FILE) return { outcomes: { venue, dayStart: Date.parse(`${date}T00:00:00Z`) } };
  const start = Date.parse(`${date}T${file.slice(0, 2)}:00:00Z`);
  return { hour: { venue, table: recordedVenueTables[venue], start } };
}

/** Refuses a day whose outcomes file is not closed yet (today, or a day in the future). */
export function assertDayClosed(day: ArchiveOutcomesDay, now: number): void {
  const availableAt = day.dayStart + 24 * HOUR_MS + CLOSE_AFTER_MS;
  if (day.dayStart > now) throw new InvalidParameterError("date", "the day is in the future");
  if (availableAt > now) {
    throw new AppError("invalid_parameter", `The day is still being recorded; its outcomes file can be downloaded from ${new Date(availableAt).toISOString()}.`, {
      parameter: "date",
      availableAt: new Date(availableAt).toISOString(),
    });
  }
}

/** Refuses an hour that is not closed yet (the current hour, or one in the future). */
export function assertClosed(hour: ArchiveHour, now: number): void {
  const availableAt = hour.start + HOUR_MS + CLOSE_AFTER_MS;
  if (hour.start > now) throw new InvalidParameterError("hour", "the hour is in the future");
  if (availableAt > now) {
    throw new AppError("invalid_parameter", `The hour is still being recorded; its file can be downloaded from ${new Date(availableAt).toISOString()}.`, {
      parameter: "hour",
      availableAt: new Date(availableAt).toISOString(),
    });
  }
}

/** The URL path of an hour's file. */
export function archiveFilePath(venue: string, start: number): string {
  const iso = new Date(start).toISOString();
  return `/v0/archive/${venue}/${iso.slice(0, 10)}/${iso.slice(11, 13)}.parquet`;
}
