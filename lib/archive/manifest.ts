import "server-only";
import { createHash } from "node:crypto";
import type { Db } from "@/lib/db";
import { InvalidParameterError } from "@/lib/errors";
import { venueHourConditions } from "@/lib/history/condition";
import type { HourCondition } from "@/lib/history/coverage-model";
import { bind, getTickStores, tickRowStream, type TickReader, type TickStores } from "@/lib/ticks";
import { recordedVenueTables, type RecordedVenue } from "@/lib/ticks/published";
import { ARCHIVE_ORDER, fileStats, openHourSummary } from "./files";
import { CLOSE_AFTER_MS, HOUR_MS, archiveFilePath } from "./hours";
import { outcomesFilePath, outcomesFileStats } from "./outcomes";
import { manifestResponse, type ManifestHour, type ManifestQuery } from "./shapes";

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

/**
 * The line of one row in the checksum (docs/history.md, "Manifest"): venue time in epoch ms,
 * market, event type and the stored JSON, tab-separated, newline-terminated; rows sorted by
 * (timestamp, market, event_type, data), duplicates counted once.
 */
export function checksumLine(timestampMs: number, market: string, eventType: string, data: string): string {
  return `${timestampMs}\t${market}\t${eventType}\t${data}\n`;
}

/**
 * GET /v0/archive/manifest: per UTC hour of a day, rows, assets, a checksum a client can recompute
 * over the rows it copied, and the hour's condition. Hours after now are not listed.
 */
export async function archiveManifest(db: Db, ticks: TickReader, query: ManifestQuery, now = Date.now()) {
  const dayStart = Date.parse(`${query.date}T00:00:00Z`);
  if (dayStart > now) throw new InvalidParameterError("date", "date is in the future");
  const venue = query.venue ?? "polymarket";
  const checksum = { algorithm: "sha256", order: ARCHIVE_ORDER, line: "<epoch ms>\\t<market>\\t<event_type>\\t<data>\\n" };
  if (query.market === undefined) {
    const stores = await getTickStores();
    const hours = await archiveDay(db, stores, venue, dayStart, now);
    const closed = dayStart + 24 * HOUR_MS + CLOSE_AFTER_MS <= now;
    const stats = closed ? await outcomesFileStats(stores, venue, dayStart) : undefined;
    const outcomes = stats === undefined ? null : { url: outcomesFilePath(venue, dayStart), rows: stats.rows, markets: stats.markets, bytes: stats.bytes, checksum: stats.sha256, sha256: stats.sha256 };
    return manifestResponse.parse({ data: { date: query.date, venue, market: null, checksum, hours, outcomes } });
  }
  const dayEnd = Math.min(dayStart + 24 * HOUR_MS, Math.ceil(now / HOUR_MS) * HOUR_MS);
  const rows = tickRowStream<[number | string, string, string, string]>(
    ticks,
    `SELECT DISTINCT toUnixTimestamp64Milli(timestamp) AS ts, market, event_type, data FROM ${recordedVenueTables[venue]}
      WHERE timestamp >= {from:DateTime64(3)} AND timestamp < {to:DateTime64(3)} AND market = {market:String}
      ORDER BY timestamp, market, event_type, data`,
    { from: bind.time(dayStart), to: bind.time(dayEnd), market: bind.string(query.market) },
  );
  const hours = new Map<number, { hash: ReturnType<typeof createHash>; rows: number; assets: Set<string> }>();
  for (let hour = dayStart; hour < dayEnd; hour += HOUR_MS) hours.set(hour, { hash: createHash("sha256"), rows: 0, assets: new Set() });
  for await (const [ts, market, eventType, data] of rows) {
    const ms = Number(ts);
    const hour = hours.get(Math.floor(ms / HOUR_MS) * HOUR_MS);
    if (hour === undefined) continue;
    hour.hash.update(checksumLine(ms, market, eventType, data));
    hour.rows += 1;
    const asset = /"asset_id":"([^"]*)"/.exec(data)?.[1];
    if (asset !== undefined) hour.assets.add(asset);
  }
  const conditions = await venueHourConditions(db, venue, dayStart, dayEnd, now);
  const data: ManifestHour[] = [...hours].map(([hour, entry]) => ({
    hour: new Date(hour).toISOString(),
    rows: entry.rows,
    assets: entry.assets.size,
    checksum: entry.hash.digest("hex"),
    condition: conditions.get(hour) ?? "missing",
    file: null,
  }));
  return manifestResponse.parse({ data: { date: query.date, venue, market: query.market, checksum, hours: data, outcomes: null } });
}
