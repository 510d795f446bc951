/**
 * What a route handler reads and returns, without committing to Web `Request`/`Response` objects.
 *
 * Under Next a handler gets a Web `Request` and must return a `Response`. Behind the API front
 * (server.mjs) neither object is needed: the front hands the wrapper a thin view of Node's request
 * (lib/http/front.ts) and writes a `JsonReply` to the socket as it is. Building a Web `Request`
 * (headers, AbortSignal, body stream) and a `Response` cost about 60 µs per call, a third of
 * everything pmxt-core's sidecar spends on one (docs/performance.md).
 */

/** The parts of a request that lib/http and the handlers read; a Web `Request` is one. */
export interface ApiRequest {
  readonly method: string;
  /** Absolute URL. */
  readonly url: string;
  readonly headers: { get(name: string): string | null };
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
  readonly body: ReadableStream<Uint8Array> | null;
}

/** Where the front leaves a small request body it has already read (lib/http/body.ts uses it). */
export const PRELOADED_BODY = Symbol.for("brier.preloadedBody");

/**
 * A JSON answer: status, headers (lower-case names) and the serialised body, as text or as its
 * UTF-8 bytes (a listing page kept whole, lib/catalog/list.ts `marketListingJson`: written to the
 * socket without encoding it again).
 */
export class JsonReply {
  readonly headers: Record<string, string>;

  constructor(
    readonly text: string | Uint8Array<ArrayBuffer>,
    readonly status = 200,
    headers: Record<string, string> = {},
  ) {
    this.headers = { "content-type": "application/json" };
    for (const [name, value] of Object.entries(headers)) this.headers[name.toLowerCase()] = value;
  }
}

/** A handler's answer: JSON as a `JsonReply`, anything streamed (SSE, CSV, Parquet) as a `Response`. */
export type Reply = JsonReply | Response;

export function setHeader(reply: Reply, name: string, value: string): void {
  if (reply instanceof JsonReply) reply.headers[name] = value;
  else reply.headers.set(name, value);
}

/** The Web `Response` Next needs. */
export function toResponse(reply: Reply): Response {
  return reply instanceof JsonReply ? new Response(reply.text, { status: reply.status, headers: reply.headers }) : reply;
}
