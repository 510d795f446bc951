import "client-only";

/**
 * Browser-side calls to Brier's own public API, authenticated by the session cookie: the dashboard
 * shows exactly what a keyed client gets. Errors of both surfaces (/v0 `{error}` and /api's pmxt
 * envelope) become one ApiError with the status, code and message the server sent.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

interface ErrorBody {
  error?: { code?: unknown; message?: unknown };
}

function errorFrom(status: number, body: unknown, fallback: string): ApiError {
  const error = (body as ErrorBody | null)?.error;
  const code = typeof error?.code === "string" ? error.code : status === 0 ? "network_error" : `http_${status}`;
  const message = typeof error?.message === "string" ? error.message : fallback;
  return new ApiError(status, code, message);
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function send(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(path, { credentials: "same-origin", ...init });
  } catch {
    throw new ApiError(0, "network_error", "The server could not be reached.");
  }
}

/** GET a /v0 resource; resolves to the parsed body, throws ApiError on a non-2xx answer. */
export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const response = await send(path, { signal, headers: { accept: "application/json" } });
  const body = await readBody(response);
  if (!response.ok) throw errorFrom(response.status, body, `Request failed with status ${response.status}.`);
  return body as T;
}

/** PUT or DELETE a /v0 resource (the watchlist); resolves to the parsed body, throws ApiError on a non-2xx answer. */
export async function sendJson<T>(method: "PUT" | "DELETE", path: string): Promise<T> {
  const response = await send(path, { method, headers: { accept: "application/json" } });
  const body = await readBody(response);
  if (!response.ok) throw errorFrom(response.status, body, `Request failed with status ${response.status}.`);
  return body as T;
}

/** POST JSON; resolves to the parsed body, throws ApiError on a non-2xx answer. */
export async function postJson<T>(path: string, payload: unknown, signal?: AbortSignal): Promise<T> {
  const response = await send(path, {
    method: "POST",
    signal,
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(payload),
  });
  const body = await readBody(response);
  if (!response.ok) throw errorFrom(response.status, body, `Request failed with status ${response.status}.`);
  return body as T;
}

/**
 * POST /v0/sql allows a few queries in flight per caller (429 beyond); a page that draws three
 * charts at once queues its own queries here instead of tripping that cap.
 */
const SQL_IN_FLIGHT = 2;
let sqlRunning = 0;
const sqlWaiting: Array<() => void> = [];

export async function postSql<T>(query: string, signal?: AbortSignal): Promise<T> {
  if (sqlRunning >= SQL_IN_FLIGHT) await new Promise<void>((resolve) => sqlWaiting.push(resolve));
  sqlRunning += 1;
  try {
    return await postJson<T>("/v0/sql", { query }, signal);
  } finally {
    sqlRunning -= 1;
    sqlWaiting.shift()?.();
  }
}

/** The raw exchange of a console call: whatever the status, the body is shown as it came. */
export interface RawCall {
  status: number;
  ms: number;
  body: unknown;
  headers: Record<string, string>;
}

export async function postRaw(path: string, payload: unknown): Promise<RawCall> {
  const started = performance.now();
  const response = await send(path, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(payload),
  });
  const body = await readBody(response);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name.startsWith("x-") || name === "content-type" || name === "retry-after") headers[name] = value;
  });
  return { status: response.status, ms: Math.round(performance.now() - started), body, headers };
}

/** Saves text made in the page (a CSV of the catalog's current view) as a file. */
export function downloadText(text: string, filename: string, type = "text/csv;charset=utf-8"): void {
  saveBlob(new Blob([text], { type }), filename);
}

function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Downloads a POST answer (CSV or Parquet export) as a file without leaving the page. */
export async function downloadPost(path: string, payload: unknown, filename: string): Promise<void> {
  const response = await send(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(payload),
  });
  if (!response.ok) throw errorFrom(response.status, await readBody(response), `Export failed with status ${response.status}.`);
  saveBlob(await response.blob(), filename);
}
