import "server-only";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { isWellFormedKey } from "@/lib/auth/api-keys";
import { assertPlan, rateLimitFor, type Plan } from "@/lib/auth/plans";
import { admitKey } from "./admission";
import { sessionAccountId } from "@/lib/auth/session";
import { getDb, type Db } from "@/lib/db";
import { accounts } from "@/lib/db/schema";
import { RateLimitedError, UnauthorizedError } from "@/lib/errors";
import { errorResponse, type Surface } from "./errors";
import { consumeRateLimit, rateLimitHeaders, rateLimitStore, type RateLimitDecision } from "./rate-limit";
import { recordUsage } from "./usage";

/** Who is calling: resolved from `Authorization: Bearer <key>` or the dashboard's session cookie. */
export interface Principal {
  accountId: string;
  email: string;
  plan: Plan;
  /** The API key's id; null when the request came from a dashboard session. */
  keyId: string | null;
  via: "key" | "session";
}

export interface RequestContext<P> {
  request: Request;
  params: P;
  searchParams: URLSearchParams;
  requestId: string;
}

export interface KeyedContext<P> extends RequestContext<P> {
  principal: Principal;
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
 * The one wrapper of every keyed /v0 and /api route (STYLE.md 2): key or session lookup, plan
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
      const db = await getDb();
      ({ principal, decision } = await authenticate(db, request));
      if (!decision.allowed) throw new RateLimitedError(decision.limit, decision.retryAfter);
      if (options.plan !== undefined) assertPlan(principal.plan, options.plan, options.planErrorCode);
      response = await handler({
        request,
        params: await route.params,
        searchParams: url.searchParams,
        requestId,
        principal,
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

/** Resolves the caller and counts the request against its rate limit. */
async function authenticate(db: Db, request: Request): Promise<{ principal: Principal; decision: RateLimitDecision }> {
  const header = request.headers.get("authorization");
  if (header === null || header.trim() === "") {
    const accountId = await sessionAccountId(request);
    if (accountId !== undefined) {
      const [account] = await db.select({ email: accounts.email, plan: accounts.plan }).from(accounts).where(eq(accounts.id, accountId));
      if (account !== undefined) {
        const decision = await consumeRateLimit(rateLimitStore(db), `account:${accountId}`, rateLimitFor(account.plan));
        return { principal: { accountId, email: account.email, plan: account.plan, keyId: null, via: "session" }, decision };
      }
    }
    throw new UnauthorizedError("Missing API key: send the header 'Authorization: Bearer <key>'.");
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (match?.[1] === undefined || !isWellFormedKey(match[1])) {
    throw new UnauthorizedError("Malformed API key: expected 'Authorization: Bearer brier_live_…'.");
  }
  const admitted = await admitKey(db, match[1]);
  if (admitted === undefined) throw new UnauthorizedError("Invalid or revoked API key.");
  return { principal: { ...admitted.principal, via: "key" }, decision: admitted.decision };
}
