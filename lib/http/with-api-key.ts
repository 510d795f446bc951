import "server-only";
import { randomUUID } from "node:crypto";
import { admitRequest } from "@/lib/auth/admission";
import { assertPlan, type Plan } from "@/lib/auth/plans";
import type { Principal } from "@/lib/auth/principal";
import type { RateLimitDecision } from "@/lib/auth/rate-limit";
import { recordUsage } from "@/lib/auth/usage";
import { getDb, type Db } from "@/lib/db";
import { RateLimitedError } from "@/lib/errors";
import { bearerToken } from "./bearer";
import { assertSameOriginSession } from "./csrf";
import { assertNoNulInUrl } from "./nul";
import { errorResponse, type Surface } from "./errors";
import { rateLimitHeaders } from "./respond";

export interface RequestContext<P> {
  request: Request;
  params: P;
  searchParams: URLSearchParams;
  requestId: string;
}

export interface KeyedContext<P> extends RequestContext<P> {
  principal: Principal;
  /** The API key the caller was admitted with; undefined for a dashboard session. */
  token: string | undefined;
  db: Db;
}

/** What Next passes a route handler as its second argument. */
export interface RouteArgs<P> {
  params: Promise<P>;
}

export interface WrapperOptions {
  /** Error body shape: `{ error }` for /v0, pmxt's envelope for /api. */
  surface?: Surface;
  /** Lowest plan allowed; below it the request gets 403. */
  plan?: Plan;
  /** Code of that 403 (`sql_access_denied` on /v0/sql). */
  planErrorCode?: "forbidden" | "sql_access_denied";
}

/**
 * For routes that need no key (health, auth): a request id on every response and the single
 * catch that maps errors to the surface's body.
 */
export function withRequest<P = Record<string, never>>(
  handler: (context: RequestContext<P>) => Promise<Response>,
  options: WrapperOptions = {},
): (request: Request, route: RouteArgs<P>) => Promise<Response> {
  const surface = options.surface ?? "v0";
  return async (request, route) => {
    const requestId = randomUUID();
    try {
      const response = await handler({
        request,
        params: await route.params,
        searchParams: new URL(request.url).searchParams,
        requestId,
      });
      response.headers.set("x-request-id", requestId);
      return response;
    } catch (error) {
      return errorResponse(error, surface, requestId);
    }
  };
}

/**
 * The one wrapper of every keyed /v0 and /api route (docs/architecture.md, "A request, end to end"): key or session lookup, plan
 * check, per-key rate limit and its headers, request id, the single catch, and the usage row
 * (buffered, written after the response).
 */
export function withApiKey<P = Record<string, never>>(
  handler: (context: KeyedContext<P>) => Promise<Response>,
  options: WrapperOptions = {},
): (request: Request, route: RouteArgs<P>) => Promise<Response> {
  const surface = options.surface ?? "v0";
  return async (request, route) => {
    const started = performance.now();
    const requestId = randomUUID();
    const url = new URL(request.url);
    let principal: Principal | undefined;
    let decision: RateLimitDecision | undefined;
    let response: Response;
    try {
      assertNoNulInUrl(url);
      const db = await getDb();
      const token = bearerToken(request.headers);
      ({ principal, decision } = await admitRequest(db, { token, cookieHeader: request.headers.get("cookie") }));
      if (principal.via === "session") assertSameOriginSession(request);
      if (!decision.allowed) throw new RateLimitedError(decision.limit, decision.retryAfter);
      if (options.plan !== undefined) assertPlan(principal.plan, options.plan, options.planErrorCode);
      response = await handler({
        request,
        params: await route.params,
        searchParams: url.searchParams,
        requestId,
        principal,
        token: principal.via === "key" ? (token ?? undefined) : undefined,
        db,
      });
    } catch (error) {
      response = errorResponse(error, surface, requestId);
    }
    response.headers.set("x-request-id", requestId);
    if (decision !== undefined) {
      for (const [name, value] of Object.entries(rateLimitHeaders(decision))) response.headers.set(name, value);
    }
    if (principal !== undefined) {
      recordUsage({
        accountId: principal.accountId,
        keyId: principal.keyId,
        method: request.method,
        path: url.pathname,
        status: response.status,
        durationMs: Math.round(performance.now() - started),
        requestId,
        createdAt: new Date(),
      });
    }
    return response;
  };
}
