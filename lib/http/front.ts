import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { PRELOADED_BODY, type ApiRequest, type Reply } from "./reply";
import { requestUrl } from "./serve.mjs";

/**
 * The API front's entry into a wrapped route (server.mjs): the wrappers in ./with-api-key.ts hang
 * it on the handler they export, under this symbol, so the front can call the same handler with a
 * view of Node's request instead of a Web `Request`, and get its `Reply` before any `Response`
 * exists. Under Next the exported function is called as usual.
 */
export const FRONT_ENTRY = Symbol.for("brier.frontEntry");

export interface FrontCall {
  req: IncomingMessage;
  res: ServerResponse;
  /** Route parameters, decoded, as Next would pass them. */
  params: Record<string, string | string[]>;
  /** The request body, when the front has read it already (small, with a Content-Length). */
  body: Buffer | undefined;
}

export type FrontEntry = (call: FrontCall) => Promise<Reply>;

/** Attaches the front's entry to the function Next calls. */
export function withFrontEntry<F extends object>(route: F, entry: FrontEntry): F {
  Object.defineProperty(route, FRONT_ENTRY, { value: entry });
  return route;
}

/** Request headers read straight from Node's (already lower-cased) header object. */
class NodeHeaders {
  readonly #headers: IncomingMessage["headers"];

  constructor(headers: IncomingMessage["headers"]) {
    this.#headers = headers;
  }

  get(name: string): string | null {
    const value = this.#headers[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(", ") : value;
  }
}

/**
 * `ApiRequest` over Node's request: the URL is built once, the AbortSignal only when a handler
 * asks for it (it then follows the response's `close`, as the Web request's signal did).
 */
export class NodeApiRequest implements ApiRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: NodeHeaders;
  readonly [PRELOADED_BODY]: Buffer | undefined;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  #abort: AbortController | undefined;

  constructor(call: FrontCall) {
    this.#req = call.req;
    this.#res = call.res;
    this.method = call.req.method ?? "GET";
    this.url = requestUrl(call.req).href;
    this.headers = new NodeHeaders(call.req.headers);
    this[PRELOADED_BODY] = call.body;
  }

  get signal(): AbortSignal {
    if (this.#abort === undefined) {
      const abort = new AbortController();
      this.#abort = abort;
      if (this.#res.closed && !this.#res.writableFinished) abort.abort();
      else this.#res.once("close", () => !this.#res.writableFinished && abort.abort());
    }
    return this.#abort.signal;
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.method === "GET" || this.method === "HEAD") return null;
    const preloaded = this[PRELOADED_BODY];
    if (preloaded !== undefined) {
      return new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array(preloaded));
          controller.close();
        },
      });
    }
    return Readable.toWeb(this.#req) as ReadableStream<Uint8Array>;
  }
}

