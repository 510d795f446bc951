// How the API front (server.mjs) answers a request with a compiled route handler, without Next's
// request pipeline. Plain JavaScript: server.mjs runs outside the bundle; tests drive the same code
// (test/front-entry.test.ts).
import { Readable } from "node:stream";

/**
 * Serves one request with a route's exported handler: through the front entry that the wrappers
 * of lib/http/with-api-key.ts attach when it has one, otherwise as Next would call it.
 */
export function serveRoute(handler, params, req, res) {
  const entry = handler[FRONT_ENTRY];
  if (typeof entry === "function") return serveFront(entry, params, req, res);
  return serveFast(handler, params, req, res);
}

/** The request's URL; a Host header that is not a valid authority falls back to localhost. */
export function requestUrl(req) {
  try {
    return new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  } catch {
    return new URL(req.url ?? "/", "http://localhost");
  }
}

/**
 * A wrapped route (lib/http/with-api-key.ts): its front entry takes Node's request and returns a
 * JsonReply (written here in one piece, no Web Request, Response or stream on either side) or, for
 * streamed answers, a Response.
 */
async function serveFront(entry, params, req, res) {
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const body = hasBody && isSmallBody(req) ? await readSmallBody(req) : undefined;
  const reply = await entry({ req, res, params, body });
  if (reply instanceof Response) return writeResponse(reply, req, res);
  const headers = reply.headers;
  headers["cache-control"] ??= NO_STORE;
  // The text's UTF-8 length, or the bytes' (a kept listing page: no encoding, no length scan).
  headers["content-length"] = String(typeof reply.text === "string" ? Buffer.byteLength(reply.text) : reply.text.byteLength);
  res.writeHead(reply.status, headers);
  res.end(req.method === "HEAD" ? undefined : reply.text);
}

/** A body with a declared length of at most SMALL_BODY_BYTES (the JSON of a pass-through call). */
function isSmallBody(req) {
  const length = Number(req.headers["content-length"]);
  return Number.isInteger(length) && length >= 0 && length <= SMALL_BODY_BYTES;
}

const NO_STORE = "private, no-cache, no-store, max-age=0, must-revalidate";

/** A route without the front entry, called as Next calls it: a Web Request in, a Response out. */
async function serveFast(handler, params, req, res) {
  const abort = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) abort.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  // A small body with a declared length (the JSON of a pass-through call) is read here in one go:
  // a Web stream over the socket costs more than the body. Larger or unsized bodies stream, and
  // the handler's reader enforces its size cap either way.
  const small = hasBody && isSmallBody(req);
  const request = new Request(requestUrl(req), {
    method: req.method,
    headers,
    body: !hasBody ? undefined : small ? await readSmallBody(req) : Readable.toWeb(req),
    duplex: hasBody && !small ? "half" : undefined,
    signal: abort.signal,
  });
  return writeResponse(await handler(request, { params: Promise.resolve(params) }), req, res);
}

async function writeResponse(response, req, res) {
  const outgoing = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") outgoing[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) outgoing["set-cookie"] = cookies;
  outgoing["cache-control"] ??= NO_STORE;
  if (response.body === null || req.method === "HEAD") {
    res.writeHead(response.status, outgoing);
    res.end();
    return;
  }
  // A JSON answer of a route without the front entry is read in one go and written in one piece;
  // everything else (SSE, CSV and Parquet downloads) streams.
  if (String(outgoing["content-type"] ?? "").startsWith("application/json")) {
    const body = Buffer.from(await response.arrayBuffer());
    outgoing["content-length"] = String(body.byteLength);
    res.writeHead(response.status, outgoing);
    res.end(body);
    return;
  }
  res.writeHead(response.status, outgoing);
  Readable.fromWeb(response.body).on("error", () => res.destroy()).pipe(res);
}

/** Request bodies up to this size with a Content-Length are read before the handler runs. */
const SMALL_BODY_BYTES = 64 * 1024;
/** The entry lib/http/front.ts hangs on every wrapped route handler. */
const FRONT_ENTRY = Symbol.for("brier.frontEntry");

function readSmallBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.once("end", () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.once("error", reject);
    req.once("aborted", () => reject(new Error("request aborted")));
  });
}

