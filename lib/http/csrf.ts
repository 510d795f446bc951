import { config } from "@/lib/config";
import { AppError } from "@/lib/errors";
import type { ApiRequest } from "./reply";

/**
 * Cross-site request refusal for dashboard-session requests to /v0 and /api (issue 9, finding 6).
 * SameSite=Lax alone lets a sibling subdomain (same site, another origin) post with the cookie.
 * A request authenticated by the session cookie must come from the dashboard's own origin:
 * - `Origin`, when sent, must be that origin (NEXTAUTH_URL's when set, else the Host the request
 *   came to);
 * - without `Origin`, `Sec-Fetch-Site` must be `same-origin` (or `none`, a typed URL, for reads);
 * - a write (any method but GET/HEAD) with neither header is refused: every browser sends one.
 * A POST must also be `application/json`, which a cross-site form or no-cors fetch cannot send
 * without a CORS preflight. Requests with an API key never reach this check: no browser attaches
 * a key on its own.
 */
export function assertSameOriginSession(request: ApiRequest): void {
  const method = request.method.toUpperCase();
  const read = method === "GET" || method === "HEAD";
  const origin = request.headers.get("origin");
  const fetchSite = request.headers.get("sec-fetch-site")?.toLowerCase();
  if (origin !== null) {
    if (!isOwnOrigin(origin, request)) refuse("the request's Origin is not the dashboard's");
  } else if (fetchSite !== undefined) {
    if (fetchSite !== "same-origin" && !(read && fetchSite === "none")) refuse(`Sec-Fetch-Site is ${fetchSite}`);
  } else if (!read) {
    refuse("a write with the session cookie must carry Origin or Sec-Fetch-Site");
  }
  if (method === "POST") {
    const contentType = request.headers.get("content-type") ?? "";
    if (!/^application\/(json|[\w.+-]+\+json)\s*(;|$)/i.test(contentType)) refuse("a POST with the session cookie must be application/json");
  }
}

function isOwnOrigin(origin: string, request: ApiRequest): boolean {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false; // includes `Origin: null` (sandboxed frames, file:)
  }
  if (config.auth.url !== undefined) {
    try {
      return parsed.origin === new URL(config.auth.url).origin;
    } catch {
      return false;
    }
  }
  const host = request.headers.get("host") ?? new URL(request.url).host;
  return parsed.host.toLowerCase() === host.toLowerCase();
}

function refuse(why: string): never {
  throw new AppError("forbidden", `Cross-site request refused: ${why}. Use an API key (Authorization: Bearer) from other origins.`, {
    reason: "cross_site",
  });
}
