import "server-only";
import { decode } from "next-auth/jwt";
import { config } from "@/lib/config";
import { getAuthSecret } from "./secret";

const secure = config.auth.url?.startsWith("https://") === true;
const cookieName = secure ? "__Secure-next-auth.session-token" : "next-auth.session-token";

function readCookies(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>();
  if (header === null) return cookies;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index <= 0) continue;
    const name = part.slice(0, index).trim();
    const value = part.slice(index + 1).trim();
    try {
      cookies.set(name, decodeURIComponent(value));
    } catch {
      cookies.set(name, value);
    }
  }
  return cookies;
}

/**
 * The account id of the dashboard session carried by a request's `Cookie` header, if any (the API
 * surface; pages use ./page-session.ts). next-auth splits large tokens into `name.0`, `name.1`,
 * ... chunks; they are joined back here.
 */
export async function sessionAccountId(cookieHeader: string | null): Promise<string | undefined> {
  const cookies = readCookies(cookieHeader);
  let token = cookies.get(cookieName);
  if (token === undefined) {
    const chunks: string[] = [];
    for (let i = 0; cookies.has(`${cookieName}.${i}`); i += 1) chunks.push(cookies.get(`${cookieName}.${i}`) ?? "");
    if (chunks.length > 0) token = chunks.join("");
  }
  if (token === undefined) return undefined;
  try {
    const payload = await decode({ token, secret: getAuthSecret() });
    return typeof payload?.sub === "string" ? payload.sub : undefined;
  } catch {
    return undefined;
  }
}
