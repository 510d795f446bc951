// Requests the API cannot route, refused by server.mjs before anything else sees them, as JSON in
// the surface's error shape (lib/http/error-body.mjs): Next would answer them with a plain-text
// 500, and a NUL byte decoded into a route parameter would reach PGlite, which cannot store it.
// Plain JavaScript: server.mjs runs outside the bundle.
import { apiErrorBody, v0ErrorBody } from "./error-body.mjs";

/** Methods no route serves; a proxy or scanner sends them. */
const refusedMethods = new Set(["TRACE", "TRACK", "CONNECT"]);
const knownMethods = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** `/v0...` or `/api/...` (but not next-auth's /api/auth), from the raw request target. */
function apiSurface(rawPath) {
  if (rawPath === "/v0" || rawPath.startsWith("/v0/")) return "v0";
  if (rawPath.startsWith("/api/") && !rawPath.startsWith("/api/auth/")) return "api";
  return undefined;
}

function send(res, surface, status, code, pmxtCode, message, extra = {}) {
  const body = surface === "v0" ? v0ErrorBody(code, message, extra) : apiErrorBody(pmxtCode, message, false);
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...(status === 405 ? { allow: "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS" } : {}) });
  res.end(JSON.stringify(body));
  return true;
}

/**
 * Answers and returns true when the request is malformed for the API: TRACE/TRACK/CONNECT or an
 * unknown method (405), a path that does not percent-decode (`/v0/%`, `/v0/markets/%zz`), or one
 * that decodes to a NUL byte (`/v0/markets/%00`) (400). Otherwise false: the request goes on.
 */
export function refuseMalformedRequest(req, res) {
  const rawPath = (req.url ?? "/").split("?", 1)[0] ?? "/";
  const method = (req.method ?? "GET").toUpperCase();
  const surface = apiSurface(rawPath);
  if (refusedMethods.has(method) || (surface !== undefined && !knownMethods.has(method))) {
    if (surface === undefined) {
      res.writeHead(405, { "content-type": "text/plain; charset=utf-8", allow: "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS" });
      res.end("Method Not Allowed\n");
      return true;
    }
    return send(res, surface, 405, "method_not_allowed", "BAD_REQUEST", `${method} is not allowed.`);
  }
  if (surface === undefined) return false;
  let decoded;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return send(res, surface, 400, "invalid_parameter", "VALIDATION_ERROR", "The request path is not valid percent-encoding.", { parameter: "path" });
  }
  if (decoded.includes("\u0000")) {
    return send(res, surface, 400, "invalid_parameter", "VALIDATION_ERROR", "The request path contains a NUL byte.", { parameter: "path" });
  }
  return false;
}
