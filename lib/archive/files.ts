import "server-only";
import { createHash } from "node:crypto";
import type { TickStores } from "@/lib/ticks";
import { archiveFilesTable } from "@/lib/ticks/ddl/0005_archive_files";
import { internalDatabase } from "@/lib/ticks/migrate";
import { HOUR_MS, type ArchiveHour } from "./hours";

/**
 * Archive files (docs/history.md, "Archive files"): one Parquet file per venue and closed UTC hour,
 * written by the engine itself (`FORMAT Parquet`, zstd) and streamed chunk by chunk; this process
 * never holds an hour. Rows are the hour's distinct events in the manifest's order
 * (timestamp, market, event_type, data), each with the earliest time it was received.
 */

/** The manifest's order of an hour's rows, and of a file's. */
export const ARCHIVE_ORDER = "timestamp, market, event_type, data";

/** What the manifest says about an hour's file. */
export interface HourFileStats {
  /** Distinct rows (the file's rows). */
  rows: number;
  assets: number;
  /** SHA-256 (hex) of the hour's row lines in ARCHIVE_ORDER: the manifest checksum and the file's ETag. */
  checksum: string;
  /** Size of the Parquet file. */
  bytes: number;
  /** SHA-256 (hex) of the Parquet file. */
  sha256: string;
}

/** The hour's time bounds as SQL literals (validated integers: chDB's streaming API binds no parameters). */
function bounds(hour: ArchiveHour): string {
  const from = Math.floor(hour.start / 1000);
  if (!Number.isSafeInteger(from) || hour.start % HOUR_MS !== 0) throw new Error("hour start must be a whole UTC hour");
  return `timestamp >= toDateTime64(${from}, 3, 'UTC') AND timestamp < toDateTime64(${from + 3600}, 3, 'UTC')`;
}

/** The SELECT of an hour's file: the engine writes it as Parquet (zstd). */
export function hourFileQuery(hour: ArchiveHour): string {
  return `SELECT timestamp, min(timestamp_received) AS timestamp_received, market, event_type, data
    FROM ${hour.table} WHERE ${bounds(hour)}
    GROUP BY timestamp, market, event_type, data
    ORDER BY ${ARCHIVE_ORDER}
    SETTINGS output_format_parquet_compression_method = 'zstd', output_format_parquet_string_as_string = 1, max_threads = 2`;
}

/**
 * The hour's row lines exactly as the manifest checksum reads them (`<epoch ms>\t<market>\t<event_type>\t<data>\n`):
 * TabSeparatedRaw writes no escapes, and no column holds a raw tab or newline (data is JSON).
 */
function checksumLinesQuery(hour: ArchiveHour): string {
  return `SELECT DISTINCT toUnixTimestamp64Milli(timestamp), market, event_type, data
    FROM ${hour.table} WHERE ${bounds(hour)} ORDER BY ${ARCHIVE_ORDER}`;
}

/** The hour's Parquet file, chunk by chunk, from the engine. */
export function hourParquet(stores: TickStores, hour: ArchiveHour, signal?: AbortSignal): AsyncIterable<Uint8Array> {
  return stores.streamQuery(hourFileQuery(hour), "Parquet", signal);
}

async function digest(chunks: AsyncIterable<Uint8Array>): Promise<{ sha256: string; bytes: number; lines: number }> {
  const hash = createHash("sha256");
  let bytes = 0;
  let lines = 0;
  for await (const chunk of chunks) {
    hash.update(chunk);
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
  }
  return { sha256: hash.digest("hex"), bytes, lines };
}

/** The manifest checksum of an hour and its row count, hashed as the engine streams the lines. */
async function hourChecksum(stores: TickStores, hour: ArchiveHour): Promise<{ checksum: string; rows: number }> {
  const { sha256, lines } = await digest(stores.streamQuery(checksumLinesQuery(hour), "TabSeparatedRaw"));
  return { checksum: sha256, rows: lines };
}

/** An open hour's rows so far: checksum, rows and assets (never stored: the hour still changes). */
export async function openHourSummary(stores: TickStores, hour: ArchiveHour): Promise<{ checksum: string; rows: number; assets: number }> {
  const { assets } = await fingerprint(stores, hour);
  return { ...(await hourChecksum(stores, hour)), assets };
}

interface Fingerprint {
  rawRows: number;
  maxReceived: number;
}

async function fingerprint(stores: TickStores, hour: ArchiveHour): Promise<Fingerprint & { assets: number }> {
  const result = await stores.writer.query({
    query: `SELECT count() AS raw, toUnixTimestamp64Milli(max(timestamp_received)) AS received, uniqExact(JSONExtractString(data, 'asset_id')) AS assets
      FROM ${hour.table} WHERE ${bounds(hour)}`,
    format: "JSONCompactEachRow",
  });
  const [row] = await result.json<[number | string, number | string, number | string]>();
  return { rawRows: Number(row?.[0] ?? 0), maxReceived: Number(row?.[1] ?? 0), assets: Number(row?.[2] ?? 0) };
}

/**
 * The stats of an hour's file: from the internal table while the hour's rows are unchanged since
 * it was built, otherwise built now (the lines hashed, the Parquet generated and hashed, both
 * streamed) and stored.
 */
export async function hourFileStats(stores: TickStores, hour: ArchiveHour): Promise<HourFileStats> {
  const table = `${internalDatabase(stores.database)}.${archiveFilesTable}`;
  const current = await fingerprint(stores, hour);
  const cached = await stores.writer.query({
    query: `SELECT raw_rows, max_received_ms, rows, assets, checksum, bytes, sha256 FROM ${table} FINAL
      WHERE venue = {venue:String} AND hour = toDateTime({hour:UInt32}, 'UTC')`,
    query_params: { venue: hour.venue, hour: hour.start / 1000 },
    format: "JSONCompactEachRow",
  });
  const [row] = await cached.json<[number | string, number | string, number | string, number | string, string, number | string, string]>();
  if (row !== undefined && Number(row[0]) === current.rawRows && Number(row[1]) === current.maxReceived) {
    return { rows: Number(row[2]), assets: Number(row[3]), checksum: row[4], bytes: Number(row[5]), sha256: row[6] };
  }
  const { checksum, rows } = await hourChecksum(stores, hour);
  const file = await digest(hourParquet(stores, hour));
  const stats: HourFileStats = { rows, assets: current.assets, checksum, bytes: file.bytes, sha256: file.sha256 };
  await stores.writer.insert({
    table,
    values: [
      {
        venue: hour.venue,
        hour: hour.start / 1000,
        raw_rows: current.rawRows,
        max_received_ms: current.maxReceived,
        rows,
        assets: current.assets,
        checksum,
        bytes: file.bytes,
        sha256: file.sha256,
      },
    ],
    format: "JSONEachRow",
  });
  return stats;
}
