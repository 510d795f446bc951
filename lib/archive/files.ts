import "server-only";
import { createHash } from "node:crypto";
import type { TickStores } from "@/lib/ticks";
import { archiveFilesTable } from "@/lib/ticks/ddl/0005_archive_files";
import { internalDatabase } from "@/lib/ticks/migrate";
import { processGlobals } from "@/lib/process-globals.mjs";
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
  return { ...(await hourChecksum(stores, hour)), assets: await hourAssets(stores, hour) };
}

/** Distinct assets with rows in the hour (reads every row's JSON: only when a file is built). */
async function hourAssets(stores: TickStores, hour: ArchiveHour): Promise<number> {
  const result = await (await stores.background.client()).query({
    query: `SELECT uniqExact(JSONExtractString(data, 'asset_id')) FROM ${hour.table} WHERE ${bounds(hour)}`,
    format: "JSONCompactEachRow",
  });
  return Number((await result.json<[number | string]>())[0]?.[0] ?? 0);
}

/** What says whether an hour changed since its file was built: its raw row count and latest receive time. */
interface Fingerprint {
  rawRows: number;
  maxReceived: number;
}

/** The fingerprint of every hour with rows in [from, to), in one grouped read of two timestamp columns. */
async function fingerprints(stores: TickStores, table: string, from: number, to: number): Promise<Map<number, Fingerprint>> {
  const result = await (await stores.background.client()).query({
    query: `SELECT toUnixTimestamp(toStartOfHour(timestamp, 'UTC')) AS h, count(), toUnixTimestamp64Milli(max(timestamp_received))
      FROM ${table} WHERE timestamp >= fromUnixTimestamp64Milli({from:Int64}) AND timestamp < fromUnixTimestamp64Milli({to:Int64}) GROUP BY h`,
    query_params: { from, to },
    format: "JSONCompactEachRow",
  });
  const rows = await result.json<[number | string, number | string, number | string]>();
  return new Map(rows.map(([h, raw, received]) => [Number(h) * 1000, { rawRows: Number(raw), maxReceived: Number(received) }]));
}

const EMPTY_SHA256 = createHash("sha256").digest("hex");

/**
 * The stats of the files of closed hours (`starts`, of one venue): an hour without rows has none
 * to build; the others come from the internal table while the hour's rows are unchanged since the
 * file was built, otherwise are built now (the lines hashed, the Parquet generated and hashed, both
 * streamed) and stored. Two reads for all the hours, then the builds one at a time.
 */
export async function fileStats(stores: TickStores, venue: ArchiveHour["venue"], table: string, starts: readonly number[]): Promise<Map<number, HourFileStats>> {
  const out = new Map<number, HourFileStats>();
  if (starts.length === 0) return out;
  const from = Math.min(...starts);
  const to = Math.max(...starts) + HOUR_MS;
  const cacheTable = `${internalDatabase(stores.database)}.${archiveFilesTable}`;
  const current = await fingerprints(stores, table, from, to);
  const cachedResult = await (await stores.background.client()).query({
    query: `SELECT toUnixTimestamp(hour), raw_rows, max_received_ms, rows, assets, checksum, bytes, sha256 FROM ${cacheTable} FINAL
      WHERE venue = {venue:String} AND hour >= toDateTime({from:UInt32}, 'UTC') AND hour < toDateTime({to:UInt32}, 'UTC')`,
    query_params: { venue, from: from / 1000, to: to / 1000 },
    format: "JSONCompactEachRow",
  });
  type CachedRow = [number | string, number | string, number | string, number | string, number | string, string, number | string, string];
  const cached = new Map((await cachedResult.json<CachedRow>()).map((row) => [Number(row[0]) * 1000, row]));
  for (const start of starts) {
    const now = current.get(start);
    if (now === undefined) {
      out.set(start, { rows: 0, assets: 0, checksum: EMPTY_SHA256, bytes: 0, sha256: "" });
      continue;
    }
    const row = cached.get(start);
    if (row !== undefined && Number(row[1]) === now.rawRows && Number(row[2]) === now.maxReceived) {
      out.set(start, { rows: Number(row[3]), assets: Number(row[4]), checksum: row[5], bytes: Number(row[6]), sha256: row[7] });
      continue;
    }
    out.set(start, await buildOnce(stores, { venue, table, start }, now, cacheTable));
  }
  return out;
}

const builds = processGlobals<{ __brierArchiveBuilds?: Map<string, Promise<HourFileStats>> }>();

/**
 * Builds an hour's file stats and stores them, once at a time per hour and fingerprint in this
 * process: the schedule preparing the last day and a manifest asking for the same hour meanwhile
 * share one build instead of doing it twice on a busy machine.
 */
function buildOnce(stores: TickStores, hour: ArchiveHour, fingerprint: Fingerprint, cacheTable: string): Promise<HourFileStats> {
  const inFlight = (builds.__brierArchiveBuilds ??= new Map());
  const key = `${hour.venue}:${hour.start}:${fingerprint.rawRows}:${fingerprint.maxReceived}`;
  const running = inFlight.get(key);
  if (running !== undefined) return running;
  const build = (async () => {
    const { checksum, rows } = await hourChecksum(stores, hour);
    const file = await digest(hourParquet(stores, hour));
    const assets = await hourAssets(stores, hour);
    const stats = { rows, assets, checksum, bytes: file.bytes, sha256: file.sha256 };
    await stores.writer.insert({
      table: cacheTable,
      values: [{ venue: hour.venue, hour: hour.start / 1000, raw_rows: fingerprint.rawRows, max_received_ms: fingerprint.maxReceived, ...stats }],
      format: "JSONEachRow",
    });
    return stats;
  })().finally(() => inFlight.delete(key));
  inFlight.set(key, build);
  return build;
}

/** The stats of one closed hour's file (see fileStats). */
export async function hourFileStats(stores: TickStores, hour: ArchiveHour): Promise<HourFileStats> {
  const stats = (await fileStats(stores, hour.venue, hour.table, [hour.start])).get(hour.start);
  if (stats === undefined) throw new Error("no stats for the hour");
  return stats;
}
