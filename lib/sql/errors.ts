import { AppError } from "@/lib/errors";

/** User SQL refused by the guard or by the engine: 400 `query_error` saying why. */
export class SqlRejectedError extends AppError {
  constructor(message: string, reason: string) {
    super("query_error", message, { reason });
  }
}

/** The engine's execution-time cap fired: 408 `query_timeout`. */
export class SqlTimeoutError extends AppError {
  constructor(limitSeconds: number) {
    super("query_timeout", `The query ran longer than ${limitSeconds} s and was cancelled. Narrow the time window or the market set.`, {
      limitSeconds,
    });
  }
}
