// The error bodies of the JSON API's two surfaces, decided here and nowhere else: /v0 answers
// `{ error: { code, message, ...details } }`, /api answers pmxt's envelope
// `{ success: false, error: { code, message, retryable, exchange? } }`. Plain JavaScript so that
// lib/http/errors.ts (in the bundle) and server.mjs (the node:http front, outside it) share it.

export const INTERNAL_ERROR_MESSAGE = "Internal server error. Quote the request id when reporting it.";

/** The surface a request path belongs to. */
export function surfaceOf(pathname) {
  return pathname.startsWith("/api/") ? "api" : "v0";
}

export function v0ErrorBody(code, message, details = {}) {
  return { error: { ...details, code, message } };
}

export function apiErrorBody(code, message, retryable, exchange) {
  return { success: false, error: { code, message, retryable, ...(exchange !== undefined ? { exchange } : {}) } };
}

/** A 500's body: nothing about the failure, only the request id to quote (on /v0). */
export function internalErrorBody(surface, requestId) {
  return surface === "v0"
    ? { error: { code: "internal_error", message: INTERNAL_ERROR_MESSAGE, requestId } }
    : { success: false, error: { code: "INTERNAL_ERROR", message: INTERNAL_ERROR_MESSAGE, retryable: true } };
}
