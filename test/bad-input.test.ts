import { describe, expect, it, vi } from "vitest";
import { POST as apiPost } from "@/app/api/[exchange]/[method]/route";
import { GET as eventGet } from "@/app/v0/events/[id]/route";
import { GET as marketGet } from "@/app/v0/markets/[id]/route";
import { GET as marketsGet } from "@/app/v0/markets/route";
import { POST as sqlPost } from "@/app/v0/sql/route";
import { MAX_JSON_DEPTH } from "@/lib/json";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

/**
 * NUL bytes at the handlers (the same code serves Vercel, where server.mjs does not run;
 * e2e/hardening.spec.ts covers the raw paths through server.mjs): a NUL byte anywhere in a keyed
 * request never reaches PGlite or PostgreSQL, and is a 400 in the surface's error shape.
 */
describe("NUL bytes in keyed requests", () => {
  it("answers 400 invalid_parameter for a NUL in a path parameter or the query string (/v0)", async () => {
    const { key } = await makeKey("enterprise");
    const cases = [
      await callRoute(marketGet, { path: "/v0/markets/%00", key, params: { id: "\u0000" } }),
      await callRoute(eventGet, { path: "/v0/events/a%00b", key, params: { id: "a\u0000b" } }),
      await callRoute(marketsGet, { path: "/v0/markets?q=%00", key }),
      await callRoute(marketsGet, { path: "/v0/markets?q=btc&venue=poly%00market", key }),
    ];
    for (const res of cases) {
      expect(res.status, res.text).toBe(400);
      expect(res.body).toMatchObject({ error: { code: "invalid_parameter" } });
    }
    // The store is fine afterwards.
    expect((await callRoute(marketsGet, { path: "/v0/markets?q=btc", key })).status).toBe(200);
  });

  it("answers 400 for a NUL inside a JSON body, on both surfaces", async () => {
    const { key } = await makeKey("enterprise");
    const sql = await callRoute(sqlPost, { path: "/v0/sql", key, body: { query: "SELECT 'a\u0000b'" } });
    expect(sql.status).toBe(400);
    expect(sql.body).toMatchObject({ error: { code: "invalid_body" } });
    const api = await callRoute(apiPost, {
      path: "/api/mock/fetchMarkets",
      key,
      body: { args: [{ query: "x\u0000y" }] },
      params: { exchange: "mock", method: "fetchMarkets" },
    });
    expect(api.status).toBe(400);
    expect(api.body).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR" } });
  });
});

describe("JSON nested deeper than the documented limit", () => {
  const LEVELS = 10_000;
  const deepArray = "[".repeat(LEVELS) + "]".repeat(LEVELS);
  const deepObject = '{"a":'.repeat(LEVELS) + "1" + "}".repeat(LEVELS);

  it("answers 400 naming the limit on every route that takes a body, never a stack overflow", async () => {
    const { GET: apiGet } = await import("@/app/api/[exchange]/[method]/route");
    const { key } = await makeKey("enterprise");
    for (const method of ["fetchMarkets", "createOrder"]) {
      for (const body of [`{"args":[${deepArray}]}`, `{"args":[${deepObject}]}`, deepArray]) {
        const res = await callRoute(apiPost, { path: `/api/mock/${method}`, key, body, params: { exchange: "mock", method } });
        expect(res.status, `${method}: ${res.text.slice(0, 200)}`).toBe(400);
        expect(res.body).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR", message: expect.stringContaining(`${MAX_JSON_DEPTH} levels`) } });
      }
    }
    const sql = await callRoute(sqlPost, { path: "/v0/sql", key, body: `{"query":"SELECT 1","x":${deepObject}}` });
    expect(sql.status, sql.text.slice(0, 200)).toBe(400);
    expect(sql.body).toMatchObject({ error: { code: "invalid_body", message: expect.stringContaining(`${MAX_JSON_DEPTH} levels`) } });
    const query = await callRoute(apiGet, {
      path: `/api/mock/fetchMarkets?tags=${encodeURIComponent(deepArray)}`,
      key,
      params: { exchange: "mock", method: "fetchMarkets" },
    });
    expect(query.status, query.text.slice(0, 200)).toBe(400);
    expect(query.body).toMatchObject({ success: false, error: { message: expect.stringContaining(`${MAX_JSON_DEPTH} levels`) } });
    // Nesting within the limit is still data.
    const fine = await callRoute(apiPost, { path: "/api/mock/fetchMarkets", key, body: { args: [{ limit: 2 }] }, params: { exchange: "mock", method: "fetchMarkets" } });
    expect(fine.status, fine.text).toBe(200);
  });
});

describe("GET /api/mock/fetchMarkets?tags=", () => {
  it("reads one tag as a one-element list, as pmxt's sidecar does (was a 500)", async () => {
    const { GET } = await import("@/app/api/[exchange]/[method]/route");
    const { key } = await makeKey("pro");
    const all = await callRoute(GET, { path: "/api/mock/fetchMarkets?limit=8", key, params: { exchange: "mock", method: "fetchMarkets" } });
    const markets = (all.body as { data: Array<{ tags?: string[] }> }).data;
    const tag = markets.find((market) => (market.tags?.length ?? 0) > 0)?.tags?.[0];
    expect(tag).toBeDefined();
    const none = await callRoute(GET, { path: "/api/mock/fetchMarkets?tags=no-such-tag", key, params: { exchange: "mock", method: "fetchMarkets" } });
    expect(none.status, none.text).toBe(200);
    expect((none.body as { data: unknown[] }).data).toEqual([]);
    for (const path of [`/api/mock/fetchMarkets?tags=${encodeURIComponent(tag ?? "")}`, `/api/mock/fetchMarkets?tags=${encodeURIComponent(tag ?? "")}&tags=zzz`]) {
      const res = await callRoute(GET, { path, key, params: { exchange: "mock", method: "fetchMarkets" } });
      expect(res.status, res.text).toBe(200);
      const found = (res.body as { data: Array<{ tags?: string[] }> }).data;
      expect(found.length).toBeGreaterThan(0);
      expect(found.every((market) => market.tags?.includes(tag ?? ""))).toBe(true);
    }
  });
});

describe("a slow-body client that disconnects", () => {
  it("is not logged as an error with a stack", async () => {
    const { key } = await makeKey("enterprise");
    const abort = new AbortController();
    // What server.mjs hands the handler when the client hangs up mid-body: the body stream fails
    // with ECONNRESET and the request's signal is aborted.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"query": "SELECT '));
        setTimeout(() => {
          abort.abort();
          controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
        }, 50);
      },
    });
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const request = new Request("http://localhost:3000/v0/sql", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body,
        duplex: "half",
        signal: abort.signal,
      } as RequestInit);
      const response = await sqlPost(request, { params: Promise.resolve({}) });
      // Nobody reads it; the usage row records 499, the status proxies give a request its client closed first.
      expect(response.status).toBe(499);
      expect(await response.json()).toEqual({});
    } finally {
      spy.mockRestore();
    }
    expect(written.filter((line) => line.includes('"level":"error"'))).toEqual([]);
    expect(written.join("")).not.toContain("at ");
  });
});
