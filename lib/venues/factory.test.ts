import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createExchange, redirectedUrl } from "./factory";

// A recorder, not a venue fake: it answers every call with an empty page so the assertions are on the URLs.
let server: Server;
let base = "";
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(request.url ?? "");
    response.setHeader("content-type", "application/json");
    const path = request.url ?? "";
    if (path.includes("kalshi")) response.end(JSON.stringify(path.includes("/series") ? { series: [] } : { events: [], cursor: "" }));
    else response.end("[]");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("createExchange", () => {
  it("rewrites venue URLs onto the redirect server, keeping host, path and query", () => {
    expect(redirectedUrl("https://clob.polymarket.com/book?token_id=7", "http://127.0.0.1:9")).toBe(
      "http://127.0.0.1:9/clob.polymarket.com/book?token_id=7",
    );
    expect(redirectedUrl("http://127.0.0.1:9/x", "http://127.0.0.1:9")).toBe("http://127.0.0.1:9/x");
  });

  it.each([
    ["polymarket", "/gamma-api.polymarket.com/events?"],
    ["kalshi", "/api.elections.kalshi.com/trade-api/v2/events?"],
  ])("sends %s's HTTP calls to the redirect server", async (venue, prefix) => {
    const exchange = createExchange(venue, { redirectUrl: base });
    expect(exchange.enableRateLimit).toBe(false);
    await expect(exchange.fetchEvents()).resolves.toEqual([]);
    expect(seen.some((url) => url.startsWith(prefix))).toBe(true);
  });

  it("ignores a caller-supplied baseUrl and never falls back to server env credentials", async () => {
    vi.stubEnv("POLYMARKET_PRIVATE_KEY", "0xdeadbeef"); // restored after the test (unstubEnvs)
    const before = seen.length;
    const exchange = createExchange("kalshi", { redirectUrl: base, credentials: { baseUrl: "http://169.254.169.254" } });
    await exchange.fetchEvents();
    expect(seen.length).toBeGreaterThan(before);
    const polymarket = createExchange("polymarket", { redirectUrl: base });
    expect((polymarket as unknown as { credentials?: { privateKey?: string } }).credentials?.privateKey).toBeUndefined();
  });

  it("refuses keys it cannot build, including prototype keys", () => {
    for (const key of ["nope", "__proto__", "constructor", "toString"]) {
      expect(() => createExchange(key)).toThrow(/Unknown exchange/);
    }
  });
});
