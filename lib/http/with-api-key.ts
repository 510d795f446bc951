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
import { NodeApiRequest, withFrontEntry } from "./front";
import { setHeader, toResponse, type ApiRequest, type Reply } from "./reply";
import { rateLimitHeaders } from "./respond";

export interface RequestContext<P> {
  /** A Web `Request` under Next, a view of Node's request behind the API front (lib/http/front.ts). */
  request: ApiRequest;
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

/** A route's exported handler: what Next calls, with the API front's entry attached (lib/http/front.ts). */
export type RouteHandler<P> = (request: Request, route: RouteArgs<P>) => Promise<Response>;

export interface WrapperOptions {
  /** Error body shape: `{ error }` for /v0, pmxt's envelope for /api. */
  surface?: Surface;
  /** Lowest plan allowed; below it the request gets 403. */
  plan?: Plan;
  /** Code of that 403 (`sql_access_denied` on /v0/sql). */
  planErrorCode?: "forbidden" | "sql_access_denied";
}

/**
 * One wrapped handler, two ways in: Next calls it with a Web `Request` and gets a `Response`; the
 * API front calls its entry with Node's request and writes the `Reply` itself.
 */
function route<P>(run: (request: ApiRequest, params: P) => Promise<Reply>): RouteHandler<P> {
  const viaNext: RouteHandler<P> = async (request, args) => toResponse(await run(request, await args.params));
  return withFrontEntry(viaNext, (call) => run(new NodeApiRequest(call), call.params as P));
}

/**
 * For routes that need no key (health, auth): a request id on every response and the single
 * catch that maps errors to the surface's body.
 */
export function withRequest<P = Record<string, never>>(
  handler: (context: RequestContext<P>) => Promise<Reply>,
  options: WrapperOptions = {},
): RouteHandler<P> {
  const surface = options.surface ?? "v0";
  return route<P>(async (request, params) => {
    const requestId = randomUUID();
    try {
      const reply = await handler({ request, params, searchParams: new URL(request.url).searchParams, requestId });
      setHeader(reply, "x-request-id", requestId);
      return reply;
    } catch (error) {
      return errorResponse(error, surface, requestId);
    }
  });
}

/**
 * The one wrapper of every keyed /v0 and /api route (docs/architecture.md, "A request, end to end"): key or session lookup, plan
 * check, per-key rate limit and its headers, request id, the single catch, and the usage row
 * (buffered, written after the response).
 */
export function withApiKey<P = Record<string, never>>(
  handler: (context: KeyedContext<P>) => Promise<Reply>,
  options: WrapperOptions = {},
): RouteHandler<P> {
  const surface = options.surface ?? "v0";
  return route<P>(async (request, params) => {
    const started = performance.now();
    const requestId = randomUUID();
    const url = new URL(request.url);
    let principal: Principal | undefined;
    let decision: RateLimitDecision | undefined;
    let reply: Reply;
    try {
      assertNoNulInUrl(url);
      const db = await getDb();
      const token = bearerToken(request.headers);
      ({ principal, decision } = await admitRequest(db, { token, cookieHeader: request.headers.get("cookie") }));
      if (principal.via === "session") assertSameOriginSession(request);
      if (!decision.allowed) throw new RateLimitedError(decision.limit, decision.retryAfter);
      if (options.plan !== undefined) assertPlan(principal.plan, options.plan, options.planErrorCode);
      reply = await handler({
        request,
        params,
        searchParams: url.searchParams,
        requestId,
        principal,
        token: principal.via === "key" ? (token ?? undefined) : undefined,
        db,
      });
    } catch (error) {
      reply = errorResponse(error, surface, requestId);
    }
    setHeader(reply, "x-request-id", requestId);
    if (decision !== undefined) {
      for (const [name, value] of Object.entries(rateLimitHeaders(decision))) setHeader(reply, name, value);
    }
    if (principal !== undefined) {
      recordUsage({
        accountId: principal.accountId,
        keyId: principal.keyId,
        method: request.method,
        path: url.pathname,
        status: reply.status,
        durationMs: Math.round(performance.now() - started),
        requestId,
        createdAt: new Date(),
      });
    }
    return reply;
  });
}
