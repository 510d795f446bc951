import { config } from "@/lib/config";
import { AppError } from "@/lib/errors";

/** What the rule reads of a call (lib/auth/admission.ts's CallerRequest is one). */
export interface SessionCall {
  transport: "http" | "socket";
  method: string;
  url: URL;
  headers: { get(name: string): string | null };
}

/**
 * The same-origin rule for a caller admitted by the dashboard's session cookie, on every transport
 * (HTTP, the /ws upgrade, SSE). SameSite=Lax alone lets a sibling subdomain (same site, another
 * origin) post with the cookie, or open a socket as the signed-in user (cross-site WebSocket
 * hijacking). A session caller must come from the dashboard's own origin:
 * - `Origin`, when sent, must be that origin (NEXTAUTH_URL's when set, else the Host the request
 *   came to);
 * - without `Origin`, `Sec-Fetch-Site` must be `same-origin` (or `none`, a typed URL, for reads);
 * - a write (any method but GET/HEAD) with neither header is refused: every browser sends one;
 * - a WebSocket upgrade must carry `Origin`: every browser sends it on a socket.
 * A POST must also be `application/json`, which a cross-site form or no-cors fetch cannot send
 * without a CORS preflight. Callers with an API key never reach this check: no browser attaches a
 * key on its own.
 */
export function assertSameOriginSession(call: SessionCall): void {
  const method = call.method.toUpperCase();
  const read = method === "GET" || method === "HEAD";
  const origin = call.headers.get("origin");
  const fetchSite = call.headers.get("sec-fetch-site")?.toLowerCase();
  if (origin !== null) {
    if (!isOwnOrigin(origin, call)) refuse("the request's Origin is not the dashboard's");
  } else if (call.transport === "socket") {
    refuse("a WebSocket upgrade with the session cookie must carry Origin");
  } else if (fetchSite !== undefined) {
    if (fetchSite !== "same-origin" && !(read && fetchSite === "none")) refuse(`Sec-Fetch-Site is ${fetchSite}`);
  } else if (!read) {
    refuse("a write with the session cookie must carry Origin or Sec-Fetch-Site");
  }
  if (method === "POST") {
    const contentType = call.headers.get("content-type") ?? "";
    if (!/^application\/(json|[\w.+-]+\+json)\s*(;|$)/i.test(contentType)) refuse("a POST with the session cookie must be application/json");
  }
}

function isOwnOrigin(origin: string, call: SessionCall): boolean {
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
  const host = call.headers.get("host") ?? call.url.host;
  return parsed.host.toLowerCase() === host.toLowerCase();
}

function refuse(why: string): never {
  throw new AppError("forbidden", `Cross-site request refused: ${why}. Use an API key (Authorization: Bearer) from other origins.`, {
    reason: "cross_site",
  });
}
