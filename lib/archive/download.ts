import "server-only";
import type { Db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { venueHourConditions } from "@/lib/history/condition";
import type { ApiRequest } from "@/lib/http/reply";
import { getTickStores } from "@/lib/ticks";
import { outcomesDayParquet } from "@/lib/outcomes/archive";
import { hourFileStats, hourParquet } from "./files";
import { HOUR_MS, assertClosed, assertDayClosed, parseArchiveFile, type ArchiveOutcomesDay } from "./hours";
import { outcomesFileStats } from "./outcomes";

export const PARQUET_CONTENT_TYPE = "application/vnd.apache.parquet";

/** Engine chunks read ahead of the socket per download. */
const READ_AHEAD = 4;

/** A single byte range of a `Range: bytes=…` header, resolved against the size; undefined: serve it all. */
export function parseRange(header: string | null, size: number): { start: number; end: number } | "unsatisfiable" | undefined {
  if (header === null) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges, or another unit: RFC 9110 lets a server ignore the header and send the whole file.
  if (match === null) return undefined;
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return undefined;
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}

/**
 * The bytes [start, end] of a chunk stream, as a Web stream that stops reading once past `end`. It
 * reads up to READ_AHEAD chunks ahead of the socket (the engine's chunks are about 2 MB), so the
 * engine writes the next part of the file while the last one is being sent.
 */
function sliceStream(chunks: AsyncIterable<Uint8Array>, start: number, end: number): ReadableStream<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        if (offset > end) {
          controller.close();
          await iterator.return?.();
          return;
        }
        const next = await iterator.next();
        if (next.done === true) {
          controller.close();
          return;
        }
        const chunk = next.value;
        const from = offset;
        offset += chunk.length;
        if (offset <= start) continue;
        controller.enqueue(chunk.subarray(Math.max(0, start - from), Math.min(chunk.length, end + 1 - from)));
        return;
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  }, { highWaterMark: READ_AHEAD });
}

/**
 * GET|HEAD /v0/archive/{venue}/{date}/{HH}.parquet: one closed UTC hour of a venue's recorded rows
 * as Parquet (zstd), streamed from the engine. ETag = the manifest checksum of the hour; `Range`
 * (one range), `If-Range`, `If-None-Match`; an hour without rows is 404 with its condition.
 * …/outcomes.parquet: the day's outcome changes (./outcomes.ts), ETag = the file's SHA-256.
 */
export async function archiveFileResponse(db: Db, request: ApiRequest, params: Record<string, unknown>, now = Date.now()): Promise<Response> {
  const file = parseArchiveFile(params);
  if ("outcomes" in file) return outcomesFileResponse(request, file.outcomes, now);
  const { hour } = file;
  assertClosed(hour, now);
  const stores = await getTickStores();
  const stats = await hourFileStats(stores, hour);
  const label = new Date(hour.start).toISOString().slice(0, 13);
  if (stats.rows === 0) {
    const condition = (await venueHourConditions(db, hour.venue, hour.start, hour.start + HOUR_MS, now)).get(hour.start) ?? "missing";
    throw new AppError("not_found", `No ${hour.venue} rows were recorded in the hour ${label}:00Z (condition: ${condition}).`, {
      resource: "archive file",
      hour: new Date(hour.start).toISOString(),
      condition,
    });
  }
  return fileResponse(request, { ...stats, etag: stats.checksum, filename: `${hour.venue}-${label.replace("T", "-")}.parquet` }, () => hourParquet(stores, hour, request.signal));
}

async function outcomesFileResponse(request: ApiRequest, day: ArchiveOutcomesDay, now: number): Promise<Response> {
  assertDayClosed(day, now);
  const stores = await getTickStores();
  const stats = await outcomesFileStats(stores, day.venue, day.dayStart);
  const date = new Date(day.dayStart).toISOString().slice(0, 10);
  if (stats === undefined) {
    throw new AppError("not_found", `Brier received no change of a ${day.venue} market's outcome on ${date}.`, { resource: "archive outcomes file", date });
  }
  return fileResponse(request, { ...stats, etag: stats.sha256, filename: `${day.venue}-${date}-outcomes.parquet` }, () => outcomesDayParquet(stores.service, day.venue, day.dayStart, request.signal));
}

/** An archive file's answer: headers, 304, one byte range (206, 416) or the whole file, streamed. */
function fileResponse(
  request: ApiRequest,
  stats: { rows: number; bytes: number; sha256: string; etag: string; filename: string },
  chunks: () => AsyncIterable<Uint8Array>,
): Response {
  const etag = `"${stats.etag}"`;
  const headers = new Headers({
    "content-type": PARQUET_CONTENT_TYPE,
    "content-disposition": `attachment; filename="${stats.filename}"`,
    "accept-ranges": "bytes",
    etag,
    "repr-digest": `sha-256=:${Buffer.from(stats.sha256, "hex").toString("base64")}:`,
    "x-archive-rows": String(stats.rows),
    "cache-control": "private, max-age=3600",
  });
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  const ifRange = request.headers.get("if-range");
  const range = ifRange === null || ifRange === etag ? parseRange(request.headers.get("range"), stats.bytes) : undefined;
  if (range === "unsatisfiable") {
    headers.set("content-range", `bytes */${stats.bytes}`);
    return new Response(null, { status: 416, headers });
  }
  const start = range?.start ?? 0;
  const end = range?.end ?? stats.bytes - 1;
  headers.set("content-length", String(end - start + 1));
  if (range !== undefined) headers.set("content-range", `bytes ${start}-${end}/${stats.bytes}`);
  const status = range === undefined ? 200 : 206;
  if (request.method === "HEAD") return new Response(null, { status, headers });
  return new Response(sliceStream(chunks(), start, end), { status, headers });
}
