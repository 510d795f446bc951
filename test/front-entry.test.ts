import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as passthrough } from "@/app/api/[exchange]/[method]/route";
import { GET as listMarkets } from "@/app/v0/markets/route";
import { WINDOW_MS } from "@/lib/auth/rate-limit";
import { json, withApiKey } from "@/lib/http";
import { serveRoute } from "@/lib/http/serve.mjs";
import { clearCatalog, seedCatalog, makeEvent } from "./helpers/catalog";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

/**
 * The API front's way into a route (lib/http/serve.mjs, what server.mjs runs): wrapped handlers are
 * called through their front entry with Node's request, no Web Request or Response. Every answer
 * must equal what the same handler gives when Next calls it (test/helpers/routes.ts).
 */

let aborted = 0;
let release: (() => void) | undefined;
const waiting = withApiKey(async ({ request }) => {
  await new Promise<void>((resolve) => {
    release = resolve;
    request.signal.addEventListener("abort", () => {
      aborted += 1;
      resolve();
    });
  });
  return json({ done: true });
});
const echo = withApiKey(async ({ request, searchParams }) =>
  json({ method: request.method, url: request.url, q: searchParams.get("q"), agent: request.headers.get("user-agent") }),
);
const streamed = withApiKey(async () => new Response("a,b\n1,2\n", { headers: { "content-type": "text/csv" } }));

const routes: Record<string, { handler: Parameters<typeof serveRoute>[0]; params: Record<string, string> }> = {
  "/api/mock/fetchOrderBook": { handler: passthrough as never, params: { exchange: "mock", method: "fetchOrderBook" } },
  "/api/mock/fetchMarkets": { handler: passthrough as never, params: { exchange: "mock", method: "fetchMarkets" } },
  "/v0/markets": { handler: listMarkets as never, params: {} },
  "/v0/wait": { handler: waiting as never, params: {} },
  "/v0/echo": { handler: echo as never, params: {} },
  "/v0/csv": { handler: streamed as never, params: {} },
};

let server: Server;
let base = "";
let key = "";

beforeAll(async () => {
  ({ key } = await makeKey("enterprise"));
  await clearCatalog();
  await seedCatalog([makeEvent({ venue: "polymarket" }, [{ title: "Front entry market" }, { title: "Second front market" }])]);
  server = createServer((req, res) => {
    const route = routes[(req.url ?? "/").split("?", 1)[0] ?? ""];
    if (route === undefined) return void res.writeHead(404).end();
    void serveRoute(route.handler, route.params, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  release?.();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const auth = () => ({ authorization: `Bearer ${key}` });
const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { method: "POST", headers: { ...auth(), "content-type": "application/json", ...headers }, body });
/** Headers that differ by design between two calls (a reset moves on when the two calls straddle a window's end). */
const volatile = new Set(["x-request-id", "x-ratelimit-remaining", "x-ratelimit-reset", "date", "connection", "keep-alive"]);
const stable = (headers: Headers) => Object.fromEntries([...headers].filter(([name]) => !volatile.has(name)));

describe("the API front's entry into wrapped routes", () => {
  it("answers a pass-through call as Next's call of the same handler does, headers included", async () => {
    const viaFront = await post("/api/mock/fetchOrderBook", JSON.stringify({ args: ["mock-m1-yes"] }));
    const viaNext = await callRoute(passthrough, {
      path: "/api/mock/fetchOrderBook",
      key,
      body: { args: ["mock-m1-yes"] },
      params: { exchange: "mock", method: "fetchOrderBook" },
    });
    expect(viaFront.status).toBe(200);
    const text = await viaFront.text();
    // The mock's book carries the time it was read; everything else is the same.
    const withoutTime = (body: unknown) => ({ ...(body as { data: object }), data: { ...(body as { data: object }).data, timestamp: 0 } });
    expect(withoutTime(JSON.parse(text))).toEqual(withoutTime(viaNext.body));
    expect(viaFront.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    expect(viaFront.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(viaFront.headers.get("cache-control")).toBe("private, no-cache, no-store, max-age=0, must-revalidate");
    const { "cache-control": _cache, "content-length": _length, ...front } = stable(viaFront.headers);
    expect(front).toEqual(stable(viaNext.headers));
    expect(front).toMatchObject({ "content-type": "application/json", "x-brier-source": "live", "x-ratelimit-limit": expect.any(String) });
    // Both name the end of the rate window they were counted in: the same one, or the next.
    const resets = [Number(viaFront.headers.get("x-ratelimit-reset")), Number(viaNext.headers.get("x-ratelimit-reset"))];
    expect(resets.every((reset) => Number.isInteger(reset) && reset > Date.now() / 1000 - 120)).toBe(true);
    expect([0, WINDOW_MS / 1000]).toContain(Math.abs((resets[0] ?? 0) - (resets[1] ?? 0)));
  });

  it("answers a catalog listing with the same body as Next's call", async () => {
    const viaFront = await fetch(`${base}/v0/markets?limit=5`, { headers: auth() });
    const viaNext = await callRoute(listMarkets, { path: "/v0/markets?limit=5", key });
    expect(viaFront.status).toBe(200);
    expect(await viaFront.json()).toEqual(viaNext.body);
  });

  it("answers errors in the surface's shape: no key, bad JSON, an empty body, an unknown method", async () => {
    const noKey = await fetch(`${base}/v0/markets`);
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ error: { code: "unauthorized" } });
    const badJson = await post("/api/mock/fetchOrderBook", "{nope");
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR", message: "The request body is not valid JSON." } });
    const empty = await post("/api/mock/fetchOrderBook", "");
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ success: false, error: { message: "A JSON request body is required." } });
    const wrongType = await post("/api/mock/fetchOrderBook", JSON.stringify({ args: ["x"] }), { "content-type": "text/plain" });
    expect(wrongType.status).toBe(400);
    expect(await wrongType.json()).toMatchObject({ success: false, error: { message: "Content-Type must be application/json." } });
  });

  it("streams a body above the pre-read size, and refuses one above the route's cap with 413", async () => {
    // 100 KB of valid JSON: past the 64 KB the front reads before the handler, under the 1 MB cap.
    const padded = JSON.stringify({ args: ["mock-m1-yes"], pad: "x".repeat(100_000) });
    const large = await post("/api/mock/fetchOrderBook", padded);
    expect(large.status).toBe(200);
    const tooLarge = await post("/api/mock/fetchOrderBook", JSON.stringify({ args: ["x".repeat(1_100_000)] }));
    expect(tooLarge.status).toBe(413);
  });

  it("gives handlers the URL, method, query and headers of the request", async () => {
    const res = await fetch(`${base}/v0/echo?q=a%20b`, { headers: { ...auth(), "user-agent": "front-test" } });
    expect(await res.json()).toEqual({ method: "GET", url: `${base}/v0/echo?q=a%20b`, q: "a b", agent: "front-test" });
  });

  it("aborts the handler's signal when the client goes away", async () => {
    const controller = new AbortController();
    const pending = fetch(`${base}/v0/wait`, { headers: auth(), signal: controller.signal }).catch(() => "aborted");
    await expect.poll(() => release !== undefined).toBe(true);
    controller.abort();
    expect(await pending).toBe("aborted");
    await expect.poll(() => aborted).toBe(1);
  });

  it("writes a streamed Response (CSV, SSE) as it comes, with the wrapper's headers", async () => {
    const res = await fetch(`${base}/v0/csv`, { headers: auth() });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv");
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(await res.text()).toBe("a,b\n1,2\n");
  });
});
