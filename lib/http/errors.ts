import { isAppError, type ErrorCode } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";
import { JsonReply } from "./reply";
import { apiErrorBody, INTERNAL_ERROR_MESSAGE, internalErrorBody, v0ErrorBody, type Surface } from "./error-body.mjs";

export type { Surface };

/** The one table of statuses (docs/architecture.md, "Errors"). */
export const statusByCode: Record<ErrorCode, number> = {
  invalid_parameter: 400,
  invalid_body: 400,
  query_error: 400,
  unauthorized: 401,
  forbidden: 403,
  sql_access_denied: 403,
  not_found: 404,
  method_not_allowed: 405,
  query_timeout: 408,
  payload_too_large: 413,
  rate_limited: 429,
  internal_error: 500,
  not_implemented: 501,
  service_unavailable: 503,
};

/** pmxt's error codes for our own errors on the pass-through surface, so pmxtjs raises its matching class. */
const pmxtCodeByCode: Record<ErrorCode, string> = {
  invalid_parameter: "VALIDATION_ERROR",
  invalid_body: "VALIDATION_ERROR",
  query_error: "BAD_REQUEST",
  unauthorized: "AUTHENTICATION_ERROR",
  forbidden: "PERMISSION_DENIED",
  sql_access_denied: "PERMISSION_DENIED",
  not_found: "NOT_FOUND",
  method_not_allowed: "BAD_REQUEST",
  query_timeout: "NETWORK_ERROR",
  payload_too_large: "BAD_REQUEST",
  rate_limited: "RATE_LIMIT_EXCEEDED",
  internal_error: "INTERNAL_ERROR",
  not_implemented: "NOT_SUPPORTED",
  service_unavailable: "EXCHANGE_NOT_AVAILABLE",
};

/** A pmxt-core error (BaseError): it carries its own HTTP status and code. Duck-typed to avoid loading pmxt-core here. */
export interface VenueError {
  message: string;
  status: number;
  code: string;
  retryable: boolean;
  exchange?: string;
}

export function isVenueError(error: unknown): error is Error & VenueError {
  if (!(error instanceof Error)) return false;
  const candidate = error as Error & Partial<VenueError>;
  return (
    typeof candidate.status === "number" &&
    candidate.status >= 400 &&
    candidate.status <= 599 &&
    typeof candidate.code === "string" &&
    /^[A-Z_]+$/.test(candidate.code) &&
    typeof candidate.retryable === "boolean"
  );
}

/**
 * What a handler that failed because its client disconnected answers: nobody reads it, nothing is
 * logged as an error (the front logs the abort at info), and its usage row says 499, the status
 * proxies give a request whose client closed it first.
 */
export function clientClosedReply(requestId: string): JsonReply {
  return new JsonReply("{}", CLIENT_CLOSED_REQUEST, { "x-request-id": requestId });
}

/** Not an HTTP status a client receives: the usage record of a request whose client left first. */
export const CLIENT_CLOSED_REQUEST = 499;

/** The body of an error answer on either surface (lib/http/error-body.mjs). */
export type ErrorBody = ReturnType<typeof v0ErrorBody> | ReturnType<typeof apiErrorBody> | ReturnType<typeof internalErrorBody>;

/** An error answer as a value: what every transport sends (HTTP reply, refused upgrade, stream error frame). */
export interface ErrorAnswer {
  status: number;
  body: ErrorBody;
  /** The code and message as the body states them (a stream error frame carries these two). */
  code: string;
  message: string;
  headers: Record<string, string>;
}

/** Turns any thrown value into the surface's error answer; unknown errors are logged, never echoed. */
export function errorAnswer(error: unknown, surface: Surface, requestId: string): ErrorAnswer {
  const headers: Record<string, string> = { "x-request-id": requestId };

  if (isAppError(error)) {
    const status = statusByCode[error.code];
    if ((error.code === "rate_limited" || error.code === "service_unavailable") && typeof error.details.retryAfter === "number") {
      headers["retry-after"] = String(error.details.retryAfter);
    }
    const exchange = typeof error.details.exchange === "string" ? error.details.exchange : undefined;
    const code = surface === "v0" ? error.code : pmxtCodeByCode[error.code];
    const body =
      surface === "v0"
        ? v0ErrorBody(error.code, error.message, error.details)
        : apiErrorBody(code, error.message, status === 429 || status >= 500, exchange);
    return { status, body, code, message: error.message, headers };
  }

  if (surface === "api" && isVenueError(error)) {
    const body = apiErrorBody(error.code, error.message, error.retryable, error.exchange);
    return { status: error.status, body, code: error.code, message: error.message, headers };
  }

  log.error("unhandled error", { requestId, ...errorFields(error) });
  return {
    status: 500,
    body: internalErrorBody(surface, requestId),
    code: surface === "v0" ? "internal_error" : "INTERNAL_ERROR",
    message: INTERNAL_ERROR_MESSAGE,
    headers,
  };
}

/** The surface's error answer as an HTTP reply. */
export function errorResponse(error: unknown, surface: Surface, requestId: string): JsonReply {
  const answer = errorAnswer(error, surface, requestId);
  return new JsonReply(JSON.stringify(answer.body), answer.status, answer.headers);
}
