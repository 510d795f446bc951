import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KalshiRest } from "./kalshi/rest";
import { PolymarketRest } from "./polymarket/rest";
import { getJson, VenueRestError } from "./rest";

// The venue REST clients against a loopback server: paging by each venue's cursor, errors typed.
let server: Server;
let base: string;
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    seen.push(`${url.pathname}${url.search}`);
    if (url.pathname === "/gamma/markets/keyset") {
      const after = url.searchParams.get("after_cursor");
      const page = after === null ? { markets: [{ id: "1" }, { id: "2" }], next_cursor: "c2" } : after === "c2" ? { markets: [{ id: "3" }] } : { markets: [] };
      res.end(JSON.stringify(page));
    } else if (url.pathname === "/kalshi/markets") {
      const cursor = url.searchParams.get("cursor");
      res.end(JSON.stringify(cursor === null ? { markets: [{ ticker: "A" }], cursor: "k2" } : { markets: [{ ticker: "B" }], cursor: "" }));
    } else if (url.pathname === "/slow") {
      setTimeout(() => res.end("{}"), 2_000);
    } else if (url.pathname === "/text") {
      res.end("<html>");
    } else {
      res.statusCode = 503;
      res.end(JSON.stringify({ error: "internal detail" }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("venue REST clients", () => {
  it("follows Gamma's keyset cursor until the venue sends none", async () => {
    const rest = new PolymarketRest({ gammaUrl: `${base}/gamma`, redirectUrl: null });
    const ids: string[] = [];
    for await (const page of rest.marketPages({ closed: true })) ids.push(...page.map((m) => m.id ?? ""));
    expect(ids).toEqual(["1", "2", "3"]);
    expect(seen.filter((s) => s.startsWith("/gamma"))).toEqual(["/gamma/markets/keyset?closed=true&limit=100", "/gamma/markets/keyset?closed=true&limit=100&after_cursor=c2"]);
  });

  it("follows Kalshi's cursor until it is empty", async () => {
    const rest = new KalshiRest({ baseUrl: `${base}/kalshi`, redirectUrl: null });
    const tickers: string[] = [];
    for await (const page of rest.marketPages("/markets", { status: "settled" }, 2)) tickers.push(...page.map((m) => m.ticker ?? ""));
    expect(tickers).toEqual(["A", "B"]);
    expect(seen.filter((s) => s.startsWith("/kalshi"))).toEqual(["/kalshi/markets?status=settled&limit=2", "/kalshi/markets?status=settled&limit=2&cursor=k2"]);
  });

  it("types a refusal, a timeout and a body that is not JSON, without the venue's body in the message", async () => {
    const refused = await getJson("kalshi", `${base}/down`, { redirectUrl: null }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(VenueRestError);
    expect((refused as VenueRestError).status).toBe(503);
    expect((refused as Error).message).not.toContain("internal detail");
    const slow = await getJson("kalshi", `${base}/slow`, { redirectUrl: null, timeoutMs: 100 }).catch((e: unknown) => e);
    expect((slow as VenueRestError).status).toBe("timeout");
    const text = await getJson("kalshi", `${base}/text`, { redirectUrl: null }).catch((e: unknown) => e);
    expect((text as VenueRestError).status).toBe("invalid_json");
  });

  it("sends every call through the offline redirect when one is set", async () => {
    const answer = await getJson<{ markets: unknown[] }>("polymarket", "https://gamma.invalid/markets/keyset?after_cursor=zz", { redirectUrl: `${base}/gamma-redirect` }).catch((e: unknown) => e);
    expect(answer).toBeInstanceOf(VenueRestError);
    expect(seen).toContain("/gamma-redirect/gamma.invalid/markets/keyset?after_cursor=zz");
  });
});
