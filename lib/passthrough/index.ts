import "server-only";
import type { Principal } from "@/lib/http";
import { readJsonBody } from "@/lib/http";
import type { PassthroughCaller, PassthroughInput } from "./dispatch";

export { callVenueMethod, passthroughPool, type PassthroughResult } from "./dispatch";

/** Largest POST body the pass-through reads (pmxt's sidecar allows 2 MB; filterMarkets payloads fit well under 1). */
export const PASSTHROUGH_MAX_BODY_BYTES = 1024 * 1024;

/** The caller as the pass-through needs it: instance owner and, for the router, the raw key. */
export function passthroughCaller(principal: Principal, request: Request): PassthroughCaller {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  return {
    owner: principal.keyId ?? `account:${principal.accountId}`,
    bearer: principal.via === "key" ? match?.[1] : undefined,
  };
}

/** GET maps the query string to args; POST reads `{ args, credentials }`. */
export async function readPassthroughInput(request: Request, searchParams: URLSearchParams): Promise<PassthroughInput> {
  if (request.method === "GET") return { kind: "query", query: searchParams };
  return { kind: "body", body: await readJsonBody(request, PASSTHROUGH_MAX_BODY_BYTES) };
}
