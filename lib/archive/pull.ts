import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";

/**
 * The client side of the archive (`npm run --silent archive -- pull`): lists each day's files from
 * the manifest, downloads what is missing into `<dir>/<venue>/<date>/<HH>.parquet` and the day's
 * `outcomes.parquet`, resumes a partial download (`.part`) with `Range` + `If-Range` (the file's
 * ETag), and verifies every file of the range against the manifest: size and SHA-256. Talks HTTP only, like any API client.
 */

export interface ManifestFile {
  url: string;
  rows: number;
  bytes: number;
  checksum: string;
  sha256: string;
}

interface ManifestBody {
  data: { hours: Array<{ hour: string; condition: string; file: ManifestFile | null }>; outcomes?: ManifestFile | null };
}

export interface PullOptions {
  baseUrl: string;
  apiKey: string;
  venue: string;
  /** First and last UTC day, YYYY-MM-DD, inclusive. */
  from: string;
  to: string;
  dir: string;
  /** Only check the files already in `dir` (no download). */
  verifyOnly?: boolean;
  onProgress?: (progress: PullProgress) => void;
  fetch?: typeof fetch;
}

export interface PullProgress {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  current: string | undefined;
}

export type FileOutcome = "downloaded" | "resumed" | "present" | "mismatch" | "missing";

export interface PullResult {
  files: Array<{ path: string; url: string; outcome: FileOutcome; problem?: string }>;
  /** Files whose size or SHA-256 differ from the manifest, or that could not be fetched. */
  mismatches: number;
}

export class PullError extends Error {
  override name = "PullError";
}

/** The UTC days from `from` to `to`, inclusive (at most 366). */
export function daysBetween(from: string, to: string): string[] {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (!Number.isFinite(start) || !Number.isFinite(end) || !/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to)) {
    throw new PullError("--from and --to must be UTC days, YYYY-MM-DD");
  }
  if (end < start) throw new PullError("--to must not be before --from");
  const days: string[] = [];
  for (let t = start; t <= end; t += 86_400_000) days.push(new Date(t).toISOString().slice(0, 10));
  if (days.length > 366) throw new PullError("at most 366 days per pull");
  return days;
}

async function fileSha256(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Checks a local file against its manifest entry; undefined when it matches. */
export async function verifyFile(file: string, expected: ManifestFile): Promise<string | undefined> {
  if (!existsSync(file)) return "not downloaded";
  const size = statSync(file).size;
  if (size !== expected.bytes) return `size ${size} bytes, the manifest says ${expected.bytes}`;
  const sha256 = await fileSha256(file);
  if (sha256 !== expected.sha256) return `SHA-256 ${sha256}, the manifest says ${expected.sha256}`;
  return undefined;
}

/**
 * `fetch` that names the URL and the cause when nothing answers: undici's own error says only
 * "fetch failed", with the reason (ECONNREFUSED, ENOTFOUND, a timeout) in its `cause`.
 */
function reachable(http: typeof fetch): typeof fetch {
  return async (input, init) => {
    try {
      return await http(input, init);
    } catch (error) {
      const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
      const reason = typeof cause?.code === "string" ? cause.code : typeof cause?.message === "string" ? cause.message : error instanceof Error ? error.message : String(error);
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      throw new PullError(`could not reach ${url.replace(/\?.*$/, "")} (${reason}): is BRIER_URL (or --url) the address of a running Brier?`);
    }
  };
}

export async function pullArchive(options: PullOptions): Promise<PullResult> {
  const http = reachable(options.fetch ?? fetch);
  const base = options.baseUrl.replace(/\/+$/, "");
  const headers = { authorization: `Bearer ${options.apiKey}` };
  const wanted: Array<{ file: ManifestFile; local: string }> = [];
  for (const day of daysBetween(options.from, options.to)) {
    const url = `${base}/v0/archive/manifest?date=${day}&venue=${encodeURIComponent(options.venue)}`;
    const response = await http(url, { headers });
    if (!response.ok) throw new PullError(`manifest of ${day}: HTTP ${response.status} ${(await response.text()).slice(0, 300)}`);
    const body = (await response.json()) as ManifestBody;
    for (const hour of body.data.hours) {
      if (hour.file === null) continue;
      wanted.push({ file: hour.file, local: path.join(options.dir, options.venue, day, `${hour.hour.slice(11, 13)}.parquet`) });
    }
    // The day's outcome changes, once the day is closed (its ETag is the file's SHA-256).
    if (body.data.outcomes) wanted.push({ file: body.data.outcomes, local: path.join(options.dir, options.venue, day, "outcomes.parquet") });
  }
  const progress: PullProgress = { filesDone: 0, filesTotal: wanted.length, bytesDone: 0, bytesTotal: wanted.reduce((sum, w) => sum + w.file.bytes, 0), current: undefined };
  const result: PullResult = { files: [], mismatches: 0 };
  for (const { file, local } of wanted) {
    progress.current = local;
    options.onProgress?.(progress);
    let outcome: FileOutcome = "present";
    let problem: string | undefined;
    try {
      if (!existsSync(local) && options.verifyOnly !== true) {
        outcome = await download(http, `${base}${file.url}`, headers, file, local, (bytes) => {
          progress.bytesDone += bytes;
          options.onProgress?.(progress);
        });
      } else progress.bytesDone += file.bytes;
      problem = await verifyFile(local, file);
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    if (problem !== undefined) {
      outcome = existsSync(local) ? "mismatch" : "missing";
      result.mismatches += 1;
    }
    result.files.push({ path: local, url: file.url, outcome, ...(problem === undefined ? {} : { problem }) });
    progress.filesDone += 1;
    options.onProgress?.(progress);
  }
  progress.current = undefined;
  return result;
}

/** Downloads into `<local>.part` (resuming what is there when the hour's ETag still matches), then renames. */
async function download(http: typeof fetch, url: string, auth: Record<string, string>, file: ManifestFile, local: string, onBytes: (bytes: number) => void): Promise<FileOutcome> {
  mkdirSync(path.dirname(local), { recursive: true });
  const part = `${local}.part`;
  const have = existsSync(part) ? statSync(part).size : 0;
  const resume = have > 0 && have < file.bytes;
  if (have >= file.bytes) rmSync(part);
  const headers: Record<string, string> = { ...auth };
  if (resume) {
    headers.range = `bytes=${have}-`;
    headers["if-range"] = `"${file.checksum}"`;
  }
  const response = await http(url, { headers });
  if (response.status !== 200 && response.status !== 206) throw new PullError(`HTTP ${response.status} for ${url}`);
  if (response.body === null) throw new PullError(`empty body for ${url}`);
  const appending = response.status === 206;
  if (appending) onBytes(have);
  const counter = async function* (source: AsyncIterable<Uint8Array>) {
    for await (const chunk of source) {
      onBytes(chunk.length);
      yield chunk;
    }
  };
  await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), counter, createWriteStream(part, { flags: appending ? "a" : "w" }));
  renameSync(part, local);
  return appending ? "resumed" : "downloaded";
}
