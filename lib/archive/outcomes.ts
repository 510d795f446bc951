import "server-only";
import { createHash } from "node:crypto";
import { outcomesDayParquet, outcomesDaySummary } from "@/lib/outcomes/archive";
import type { TickStores } from "@/lib/ticks";
import { archiveFilesTable } from "@/lib/ticks/ddl/0005_archive_files";
import { internalDatabase } from "@/lib/ticks/migrate";
import type { RecordedVenue } from "@/lib/ticks/published";

/**
 * The archive's outcomes file (docs/history.md, "Outcomes files"): one Parquet file per venue and
 * UTC day with every change of a market's outcome Brier received that day (lib/outcomes/archive.ts,
 * ClickHouse `market_outcomes`), listed in that day's manifest once the day is closed.
 */

/** The stats of a day's outcomes file, as the manifest lists them. */
export interface OutcomesFileStats {
  /** Changes in the file. */
  rows: number;
  /** Distinct markets they concern. */
  markets: number;
  bytes: number;
  /** SHA-256 (hex) of the file: also its ETag. */
  sha256: string;
}

/** The URL path of a day's outcomes file. */
export function outcomesFilePath(venue: string, dayStart: number): string {
  return `/v0/archive/${venue}/${new Date(dayStart).toISOString().slice(0, 10)}/outcomes.parquet`;
}

/** The key of a day's outcomes file among the cached file stats (`archive_files`, whose `hour` holds the day's start). */
const cacheVenue = (venue: RecordedVenue) => `${venue}:outcomes`;

/**
 * The stats of a closed day's outcomes file: from the internal table while the day's row count and
 * latest receive time are those it was built from, otherwise built now (the engine's Parquet hashed
 * as it streams) and stored. Undefined when the day has no change.
 */
export async function outcomesFileStats(stores: TickStores, venue: RecordedVenue, dayStart: number): Promise<OutcomesFileStats | undefined> {
  const summary = await outcomesDaySummary(stores.background, venue, dayStart);
  if (summary.rows === 0) return undefined;
  const cacheTable = `${internalDatabase(stores.database)}.${archiveFilesTable}`;
  const cached = await (await stores.background.client()).query({
    query: `SELECT raw_rows, max_received_ms, assets, bytes, sha256 FROM ${cacheTable} FINAL WHERE venue = {venue:String} AND hour = toDateTime({day:UInt32}, 'UTC')`,
    query_params: { venue: cacheVenue(venue), day: dayStart / 1000 },
    format: "JSONCompactEachRow",
  });
  const [row] = await cached.json<[number | string, number | string, number | string, number | string, string]>();
  if (row !== undefined && Number(row[0]) === summary.rows && Number(row[1]) === summary.maxReceivedMs) {
    return { rows: summary.rows, markets: Number(row[2]), bytes: Number(row[3]), sha256: row[4] };
  }
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of outcomesDayParquet(stores.background, venue, dayStart)) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  const sha256 = hash.digest("hex");
  await stores.writer.insert({
    table: cacheTable,
    values: [
      { venue: cacheVenue(venue), hour: dayStart / 1000, raw_rows: summary.rows, max_received_ms: summary.maxReceivedMs, rows: summary.rows, assets: summary.markets, checksum: sha256, bytes, sha256 },
    ],
    format: "JSONEachRow",
  });
  return { rows: summary.rows, markets: summary.markets, bytes, sha256 };
}
