import "server-only";
import { randomUUID } from "node:crypto";
import { admitCaller, type AdmissionPolicy, type AdmittedCall } from "@/lib/auth/admission";
import type { Principal } from "@/lib/auth/principal";
import { getDb, type Db } from "@/lib/db";
import { requestTickReader, type TickReader } from "@/lib/ticks";
import { bearerToken } from "./bearer";
import { assertNoNulInUrl } from "./nul";
import { clientClosedReply, errorResponse, type Surface } from "./errors";
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
  /** The ClickHouse reader of the request (lib/ticks/query.ts), opened at its first read. */
  ticks: TickReader;
  /** What the wrapper's `alongside` expression answered in admission's statement; undefined when admission read none (the handler reads it itself). */
  alongside: string | undefined;
}

/** What Next passes a route handler as its second argument. */
export interface RouteArgs<P> {
  params: Promise<P>;
}

/** A route's exported handler: what Next calls, with the API front's entry attached (lib/http/front.ts). */
export type RouteHandler<P> = (request: Request, route: RouteArgs<P>) => Promise<Response>;

export interface WrapperOptions extends AdmissionPolicy {
  /** Error body shape: `{ error }` for /v0, pmxt's envelope for /api. */
  surface?: Surface;
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
 * The one wrapper of every keyed /v0 and /api route (docs/architecture.md, "A request, end to end"):
 * admission (lib/auth/admission.ts: key or session, same-origin rule, rate limit, plan, usage row),
 * the rate-limit headers, request id and the single catch.
 */
export function withApiKey<P = Record<string, never>>(
  handler: (context: KeyedContext<P>) => Promise<Reply>,
  options: WrapperOptions = {},
): RouteHandler<P> {
  const surface = options.surface ?? "v0";
  return route<P>(async (request, params) => {
    const startedAt = performance.now();
    const requestId = randomUUID();
    const url = new URL(request.url);
    let admission: AdmittedCall | undefined;
    let reply: Reply;
    try {
      assertNoNulInUrl(url);
      const db = await getDb();
      const token = bearerToken(request.headers);
      admission = await admitCaller(db, { transport: "http", method: request.method, url, headers: request.headers, token, requestId, startedAt }, options);
      const { principal } = admission;
      if (admission.refusal !== undefined || principal === undefined) throw admission.refusal;
      reply = await handler({
        request,
        params,
        searchParams: url.searchParams,
        requestId,
        principal,
        token: principal.via === "key" ? (token ?? undefined) : undefined,
        db,
        ticks: requestTickReader(),
        alongside: admission.alongside,
      });
    } catch (error) {
      // The client left first (its failure is ours to ignore: the front counts and logs the abort at info).
      reply = request.signal.aborted ? clientClosedReply(requestId) : errorResponse(error, surface, requestId);
    }
    setHeader(reply, "x-request-id", requestId);
    if (admission?.decision !== undefined) {
      for (const [name, value] of Object.entries(rateLimitHeaders(admission.decision))) setHeader(reply, name, value);
    }
    admission?.finish(reply.status);
    return reply;
  });
}
