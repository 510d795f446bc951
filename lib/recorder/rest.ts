import "server-only";
import { config } from "@/lib/config";
import { parseUntrustedJson } from "@/lib/json";
import { redirectedUrl } from "@/lib/venues/factory";

/*
 * The one HTTP GET of the venues' REST clients (lib/recorder/<venue>/rest.ts): JSON only, a
 * deadline per request, the offline redirect applied, and a typed error naming the venue, status
 * and path (never the response body's internals). pmxt-core stays the way to a venue for what it
 * carries; these clients read what it does not (outcomes, per-market fees).
 */

export interface RestOptions {
  /** Per-request deadline (default VENUE_TIMEOUT_MS). */
  timeoutMs?: number;
  /** The redirect of every call (tests and the offline demo: VENUE_REDIRECT_URL); null for none. */
  redirectUrl?: string | null;
  signal?: AbortSignal;
}

export type QueryValue = string | number | boolean | undefined | readonly string[];

/** A venue REST call that did not answer JSON with a 2xx status in time. */
export class VenueRestError extends Error {
  constructor(
    readonly venue: string,
    readonly path: string,
    readonly status: number | "timeout" | "network" | "invalid_json",
    message: string,
  ) {
    super(message);
    this.name = "VenueRestError";
  }
}

/** `base` + `path` with the query (arrays repeat the key; undefined values are left out). */
export function restUrl(base: string, path: string, query: Record<string, QueryValue> = {}): string {
  const url = new URL(`${base}${path}`);
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value as readonly string[]) url.searchParams.append(name, item);
    else url.searchParams.set(name, String(value));
  }
  return url.toString();
}

/** GET `url` and parse its JSON body; a non-2xx answer, a timeout or a body that is not JSON throws VenueRestError. */
export async function getJson<T>(venue: string, url: string, options: RestOptions = {}): Promise<T> {
  const redirect = options.redirectUrl === undefined ? config.venueRedirectUrl : (options.redirectUrl ?? undefined);
  const target = redirect === undefined ? url : redirectedUrl(url, redirect);
  const path = new URL(url).pathname;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? config.venueTimeoutMs);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal]);
  let response: Response;
  try {
    response = await fetch(target, { headers: { accept: "application/json" }, signal });
  } catch (error) {
    if (timeout.aborted) throw new VenueRestError(venue, path, "timeout", `${venue} ${path}: no answer within ${options.timeoutMs ?? config.venueTimeoutMs} ms`);
    throw new VenueRestError(venue, path, "network", `${venue} ${path}: ${(error as Error).message}`);
  }
  const text = await response.text();
  if (!response.ok) throw new VenueRestError(venue, path, response.status, `${venue} ${path} answered ${response.status}`);
  const parsed = parseUntrustedJson(text);
  if (!parsed.ok) throw new VenueRestError(venue, path, "invalid_json", `${venue} ${path} answered a body that is not JSON (${parsed.reason})`);
  // The shape is the caller's to check field by field (lib/recorder/<venue>/outcomes.ts): T names what the venue documents.
  return parsed.value as T;
}
