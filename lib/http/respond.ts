import type { RateLimitDecision } from "@/lib/auth/rate-limit";

/** Where server.mjs finds the serialised body of a JSON response (it then writes the string, no Web stream). */
const JSON_BODY = Symbol.for("brier.jsonBody");

/** A JSON response. Handlers return this; the wrapper adds request id and rate-limit headers. */
export function json(data: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  if (!headers.has("content-type")) headers.set("content-type", "application/json");
  const text = JSON.stringify(data);
  const response = new Response(text, { ...init, headers });
  // Under Next (no front) nothing reads it; server.mjs writes it only while the body is unread.
  Object.defineProperty(response, JSON_BODY, { value: text });
  return response;
}

/** The rate-limit headers of a counted request (every keyed response carries them). */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    "x-ratelimit-limit": String(decision.limit),
    "x-ratelimit-remaining": String(decision.remaining),
    "x-ratelimit-reset": String(decision.resetAt),
  };
}
