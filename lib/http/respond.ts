import { JsonReply } from "./reply";
import type { RateLimitDecision } from "@/lib/auth/rate-limit";

/**
 * A JSON answer. Handlers return this; the wrapper adds request id and rate-limit headers, then
 * Next gets a Response made of it and the API front (server.mjs) writes it as it is.
 */
export function json(data: unknown, init: { status?: number; headers?: Record<string, string> } = {}): JsonReply {
  return new JsonReply(JSON.stringify(data), init.status, init.headers);
}

/** A JSON answer already serialised, as text or UTF-8 bytes (a listing page made of kept market JSON, lib/catalog/list.ts `marketListingJson`). */
export function jsonText(text: string | Uint8Array<ArrayBuffer>, init: { status?: number; headers?: Record<string, string> } = {}): JsonReply {
  return new JsonReply(text, init.status, init.headers);
}

/** The rate-limit headers of a counted request (every keyed response carries them). */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    "x-ratelimit-limit": String(decision.limit),
    "x-ratelimit-remaining": String(decision.remaining),
    "x-ratelimit-reset": String(decision.resetAt),
  };
}
