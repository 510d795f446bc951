import "server-only";
import { createHash } from "node:crypto";
import { z } from "zod";
import type { Db } from "@/lib/db";
import { InvalidParameterError } from "@/lib/errors";
import { venueHourConditions } from "@/lib/archive/condition";
import { archiveDate, archiveVenue } from "@/lib/archive/hours";
import { ARCHIVE_ORDER } from "@/lib/archive/files";
import { archiveDay } from "@/lib/archive/manifest";
import { getTickStores } from "@/lib/ticks";
import { recordedVenueTables } from "@/lib/ticks/published";
import { HOUR_MS, type HourCondition } from "./coverage-model";
import { conditionIdParam, parseQuery } from "./params";
import { chTime, historyClient } from "./ticks";

export const manifestQuery = z
  .object({
    date: archiveDate.describe("The UTC day, YYYY-MM-DD. Required."),
    venue: archiveVenue.optional().describe("The recorded venue: polymarket (default) or kalshi."),
    market: conditionIdParam.optional().describe("Only this market's rows (condition id on Polymarket, market ticker on Kalshi); default the whole archive, with each closed hour's Parquet file."),
  })
  .strict();

export interface ManifestHour {
  /** Hour start, ISO 8601 UTC. */
  hour: string;
  /** Distinct rows (timestamp, market, event_type, data) of the hour. */
  rows: number;
  /** Distinct assets with rows in the hour. */
  assets: number;
  /** SHA-256 (hex) of the hour's rows as lines, in the documented order; of the empty string when none. */
  checksum: string;
  /** The recorder's condition for the hour (whole archive): available, degraded or missing. */
  condition: HourCondition;
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
export async function archiveManifest(db: Db, searchParams: URLSearchParams, now = Date.now()) {
  const query = parseQuery(manifestQuery, searchParams);
  const dayStart = Date.parse(`${query.date}T00:00:00Z`);
  if (dayStart > now) throw new InvalidParameterError("date", "date is in the future");
  const venue = query.venue ?? "polymarket";
  const checksum = { algorithm: "sha256", order: ARCHIVE_ORDER, line: "<epoch ms>\\t<market>\\t<event_type>\\t<data>\\n" };
  if (query.market === undefined) {
    const hours = await archiveDay(db, await getTickStores(), venue, dayStart, now);
    return { data: { date: query.date, venue, market: null, checksum, hours } };
  }
  const dayEnd = Math.min(dayStart + 24 * HOUR_MS, Math.ceil(now / HOUR_MS) * HOUR_MS);
  const client = await historyClient();
  const result = await client.query({
    query: `SELECT DISTINCT toUnixTimestamp64Milli(timestamp) AS ts, market, event_type, data FROM ${recordedVenueTables[venue]}
      WHERE timestamp >= {from:DateTime64(3)} AND timestamp < {to:DateTime64(3)} AND market = {market:String}
      ORDER BY timestamp, market, event_type, data`,
    query_params: { from: chTime(dayStart), to: chTime(dayEnd), market: query.market },
    format: "JSONCompactEachRow",
  });
  const hours = new Map<number, { hash: ReturnType<typeof createHash>; rows: number; assets: Set<string> }>();
  for (let hour = dayStart; hour < dayEnd; hour += HOUR_MS) hours.set(hour, { hash: createHash("sha256"), rows: 0, assets: new Set() });
  for await (const batch of result.stream<[number | string, string, string, string]>()) {
    for (const line of batch) {
      const [ts, market, eventType, data] = line.json();
      const ms = Number(ts);
      const hour = hours.get(Math.floor(ms / HOUR_MS) * HOUR_MS);
      if (hour === undefined) continue;
      hour.hash.update(checksumLine(ms, market, eventType, data));
      hour.rows += 1;
      const asset = /"asset_id":"([^"]*)"/.exec(data)?.[1];
      if (asset !== undefined) hour.assets.add(asset);
    }
  }
  const conditions = await venueHourConditions(db, venue, dayStart, dayEnd, now);
  const data: ManifestHour[] = [...hours].map(([hour, entry]) => ({
    hour: new Date(hour).toISOString(),
    rows: entry.rows,
    assets: entry.assets.size,
    checksum: entry.hash.digest("hex"),
    condition: conditions.get(hour) ?? "missing",
  }));
  return { data: { date: query.date, venue, market: query.market, checksum, hours: data } };
}
