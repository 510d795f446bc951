import { encode } from "next-auth/jwt";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as apiPost } from "@/app/api/[exchange]/[method]/route";
import { GET as sqlGet, POST as sqlPost } from "@/app/v0/sql/route";
import { getAuthSecret } from "@/lib/auth/secret";
import { makeKey } from "./helpers/keys";

/**
 * The CSRF matrix. Cookie- or key-authenticated × same origin, foreign origin,
 * sibling subdomain, a cross-site fetch without Origin, no browser headers × content types, on
 * POST /v0/sql and POST /api/mock/createOrder. A session request is served only from the
 * dashboard's own origin, and a session POST only as application/json; a key is never refused here.
 */

const OWN = "http://localhost:3000";
type Handler = (request: Request, route: { params: Promise<never> }) => Promise<Response>;

const targets = [
  { name: "POST /v0/sql", handler: sqlPost as Handler, path: "/v0/sql", params: {}, body: JSON.stringify({ query: "SELECT 1 AS one" }) },
  {
    name: "POST /api/mock/createOrder",
    handler: apiPost as Handler,
    path: "/api/mock/createOrder",
    params: { exchange: "mock", method: "createOrder" },
    body: JSON.stringify({ args: [{ marketId: "mock-m1", outcomeId: "mock-m1-yes", side: "buy", type: "market", amount: 1 }] }),
  },
] as const;

const origins: Array<[string, Record<string, string>, boolean]> = [
  // [label, browser headers, same origin?]
  ["same origin (Origin)", { origin: OWN, "sec-fetch-site": "same-origin" }, true],
  ["same origin (Sec-Fetch-Site only)", { "sec-fetch-site": "same-origin" }, true],
  ["foreign origin", { origin: "https://evil.example", "sec-fetch-site": "cross-site" }, false],
  ["sibling subdomain (same site)", { origin: "http://evil.localhost:3000", "sec-fetch-site": "same-site" }, false],
  ["Origin: null", { origin: "null" }, false],
  ["cross-site without Origin", { "sec-fetch-site": "cross-site" }, false],
  ["no browser headers", {}, false],
];

const contentTypes: Array<[string, string | undefined, boolean]> = [
  ["application/json", "application/json", true],
  ["application/json; charset=utf-8", "application/json; charset=utf-8", true],
  ["text/plain", "text/plain", false],
  ["form", "application/x-www-form-urlencoded", false],
  ["none", undefined, false],
];

let cookie: string;
let key: string;

beforeAll(async () => {
  const made = await makeKey("enterprise");
  key = made.key;
  cookie = `next-auth.session-token=${await encode({ token: { sub: made.accountId }, secret: getAuthSecret() })}`;
});

async function send(target: (typeof targets)[number], auth: "cookie" | "key", headers: Record<string, string>, contentType: string | undefined) {
  const all = new Headers(headers);
  if (auth === "cookie") all.set("cookie", cookie);
  else all.set("authorization", `Bearer ${key}`);
  if (contentType !== undefined) all.set("content-type", contentType);
  const request = new Request(`${OWN}${target.path}`, { method: "POST", headers: all, body: target.body });
  if (contentType === undefined) request.headers.delete("content-type"); // undici defaults a string body to text/plain
  const response = await target.handler(request, { params: Promise.resolve(target.params as never) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const cases = targets.flatMap((target) =>
  origins.flatMap(([originLabel, headers, sameOrigin]) =>
    contentTypes.map(([typeLabel, contentType, json]) => ({ target, originLabel, headers, sameOrigin, typeLabel, contentType, json })),
  ),
);

describe("CSRF: session-cookie requests", () => {
  it.each(cases.map((c) => [c.target.name, c.originLabel, c.typeLabel, c] as const))("%s, %s, %s", async (_t, _o, _c, c) => {
    const res = await send(c.target, "cookie", c.headers, c.contentType);
    if (c.sameOrigin && c.json) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    } else {
      expect(res.status).toBe(403);
      if (c.target.path.startsWith("/v0")) expect(res.body).toMatchObject({ error: { code: "forbidden", reason: "cross_site" } });
      else expect(res.body).toMatchObject({ success: false, error: { code: "PERMISSION_DENIED" } });
    }
  });

  it("still serves a same-origin GET, and a GET without browser headers (a read cannot be forged into a write)", async () => {
    for (const headers of [{ "sec-fetch-site": "same-origin" }, {}, { "sec-fetch-site": "none" }] as Array<Record<string, string>>) {
      const request = new Request(`${OWN}/v0/sql?query=SELECT%201%20AS%20one`, { headers: { ...headers, cookie } });
      expect((await sqlGet(request, { params: Promise.resolve({}) })).status).toBe(200);
    }
    const foreign = new Request(`${OWN}/v0/sql?query=SELECT%201%20AS%20one`, { headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site", cookie } });
    expect((await sqlGet(foreign, { params: Promise.resolve({}) })).status).toBe(403);
  });
});

describe("CSRF: key-authenticated requests are unaffected", () => {
  it.each(cases.filter((c) => c.json || c.contentType === undefined).map((c) => [c.target.name, c.originLabel, c.typeLabel, c] as const))(
    "%s, %s, %s",
    async (_t, _o, _c, c) => {
      const res = await send(c.target, "key", c.headers, c.contentType);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    },
  );
});
