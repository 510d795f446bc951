import type { IncomingMessage, ServerResponse } from "node:http";

/** Serves one request with a route's exported handler (its front entry when it has one). */
export function serveRoute(
  handler: (request: Request, route: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>,
  params: Record<string, string | string[]>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void>;

/** The request's URL; a Host header that is not a valid authority falls back to localhost. */
export function requestUrl(req: IncomingMessage): URL;
