import "server-only";
import { BadRequest, NetworkError, NotFound } from "pmxt-core/dist/errors";
import { ErrorMapper } from "pmxt-core/dist/utils/error-mapper";
import { isVenueError } from "@/lib/http";
import { AppError, isAppError } from "@/lib/errors";

const networkCodes = new Set(["ECONNREFUSED", "ENOTFOUND", "ETIMEDOUT", "ECONNRESET", "ECONNABORTED", "EAI_AGAIN", "EPIPE"]);
const maxMessageLength = 500;

function trimmed(message: string): string {
  return message.length > maxMessageLength ? `${message.slice(0, maxMessageLength)}…` : message;
}

/**
 * Turns what a venue call threw into an error the /api wrapper answers with pmxt's envelope and
 * status: pmxt-core errors keep theirs; HTTP and socket failures become pmxt's network /
 * unavailable / status classes (pmxt's own ErrorMapper); a plain `Error` carries a message pmxt
 * meant for the caller. Anything else (TypeError, ...) is a bug: it is rethrown as is, so the
 * wrapper logs it and answers a generic 500 — its text never reaches the client.
 */
export function toVenueError(error: unknown, venue: string): unknown {
  if (isVenueError(error) || isAppError(error)) return error;
  // axios marks its errors; pmxt-core depends on axios, Brier does not import it.
  if (typeof error === "object" && error !== null && (error as { isAxiosError?: unknown }).isAxiosError === true) return new ErrorMapper(venue).mapError(error);
  if (error instanceof Error && networkCodes.has(String((error as Error & { code?: unknown }).code))) {
    return new NetworkError(`${venue} is unreachable (${String((error as Error & { code?: unknown }).code)}).`, venue);
  }
  if (error instanceof Error && Object.getPrototypeOf(error) === Error.prototype) {
    const message = trimmed(error.message);
    if (/not (supported|implemented)/i.test(message)) return new AppError("not_implemented", message, { exchange: venue });
    if (/not found/i.test(message)) return new NotFound(message, venue);
    return new BadRequest(message, venue);
  }
  return error;
}
