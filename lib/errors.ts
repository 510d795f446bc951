/**
 * Domain errors. lib/ throws these and never builds a Response; lib/http maps each code to a
 * status and to the body shape of the surface that answers (docs/architecture.md, "Errors").
 */

export const errorCodes = [
  "invalid_parameter",
  "invalid_body",
  "unauthorized",
  "forbidden",
  "sql_access_denied",
  "not_found",
  "method_not_allowed",
  "payload_too_large",
  "query_error",
  "query_timeout",
  "rate_limited",
  "not_implemented",
  "service_unavailable",
  "internal_error",
] as const;

export type ErrorCode = (typeof errorCodes)[number];

/** Marks every AppError, whichever copy of this module made it (see isAppError). */
const APP_ERROR = Symbol.for("brier.appError");

export class AppError extends Error {
  override name = "AppError";
  readonly [APP_ERROR] = true;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra fields merged into the error body; never put internals here. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/**
 * True for an AppError made by any copy of this module. Next bundles each route (and
 * instrumentation) with its own copy of lib/, while the stores are process-wide singletons made by
 * the first bundle that opened them: an AppError thrown inside one (the tick store's busy refusal)
 * is not `instanceof` the route's own AppError. Measured: 906 of those answered 500 instead of 503.
 */
export function isAppError(error: unknown): error is AppError {
  return typeof error === "object" && error !== null && (error as { [APP_ERROR]?: unknown })[APP_ERROR] === true;
}

/** A query or path parameter failed validation. `parameter` names it for the client. */
export class InvalidParameterError extends AppError {
  constructor(parameter: string, message: string) {
    super("invalid_parameter", message, { parameter });
  }
}

export class InvalidBodyError extends AppError {
  constructor(message: string, path?: string) {
    super("invalid_body", message, path === undefined ? {} : { path });
  }
}

export class UnauthorizedError extends AppError {
  constructor(message: string) {
    super("unauthorized", message);
  }
}

export class PlanRequiredError extends AppError {
  constructor(required: string, current: string, code: "forbidden" | "sql_access_denied" = "forbidden") {
    super(code, `This endpoint requires the ${required} plan; this account is on the ${current} plan.`, {
      requiredPlan: required,
      plan: current,
    });
  }
}

export class NotFoundError extends AppError {
  constructor(resource: string, id: string) {
    super("not_found", `No ${resource} matches '${id}'.`, { resource });
  }
}

export class RateLimitedError extends AppError {
  constructor(
    readonly limit: number,
    readonly retryAfterSeconds: number,
  ) {
    super("rate_limited", `Rate limit of ${limit} requests per minute exceeded; retry in ${retryAfterSeconds} s.`, {
      retryAfter: retryAfterSeconds,
    });
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(limitBytes: number) {
    super("payload_too_large", `Request body exceeds ${limitBytes} bytes.`, { limitBytes });
  }
}

/**
 * The client went away before its request completed (a disconnect mid-body, or while its SQL
 * waited or ran). Nobody reads the answer; it is an expected event, never logged as an error.
 */
export class ClientClosedRequestError extends AppError {
  constructor() {
    super("invalid_body", "The client closed the request before it completed.", { clientClosed: true });
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super("service_unavailable", message, details);
  }
}
