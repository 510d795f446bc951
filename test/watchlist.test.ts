import { beforeAll, describe, expect, it } from "vitest";
import { DELETE as unstar, PUT as star } from "@/app/v0/watchlist/[marketId]/route";
import { GET as openapi } from "@/app/v0/openapi.json/route";
import { GET as listWatchlist } from "@/app/v0/watchlist/route";
import { marketUuid } from "@/lib/catalog/ids";
import type { MarketPublic } from "@/lib/catalog/shapes";
import { describeKeyedRoute } from "./helpers/auth-suite";
import { makeEvent, seedCatalog } from "./helpers/catalog";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

const seeded = makeEvent({ venue: "polymarket", title: "Watchlist event" }, [
  { venueMarketId: "wl-one", slug: "wl-one-slug", title: "First starred market", contractAddress: "0xwl1" },
  { venueMarketId: "wl-two", slug: "wl-two-slug", title: "Second starred market" },
]);
const firstId = marketUuid("polymarket", "wl-one");
const secondId = marketUuid("polymarket", "wl-two");

beforeAll(async () => {
  await seedCatalog([seeded]);
});

describeKeyedRoute({ name: "GET /v0/watchlist", handler: listWatchlist, request: { path: "/v0/watchlist" }, surface: "v0" });
describeKeyedRoute({
  name: "PUT /v0/watchlist/{marketId}",
  handler: star,
  request: { method: "PUT", path: `/v0/watchlist/${firstId}`, params: { marketId: firstId } },
  surface: "v0",
});
describeKeyedRoute({
  name: "DELETE /v0/watchlist/{marketId}",
  handler: unstar,
  request: { method: "DELETE", path: `/v0/watchlist/${firstId}`, params: { marketId: firstId } },
  surface: "v0",
});

async function list(key: string): Promise<string[]> {
  const res = await callRoute(listWatchlist, { path: "/v0/watchlist", key });
  expect(res.status).toBe(200);
  return (res.body as { data: MarketPublic[] }).data.map((m) => m.marketId);
}

const put = (key: string, ref: string) => callRoute(star, { method: "PUT", path: `/v0/watchlist/${encodeURIComponent(ref)}`, key, params: { marketId: ref } });
const del = (key: string, ref: string) => callRoute(unstar, { method: "DELETE", path: `/v0/watchlist/${encodeURIComponent(ref)}`, key, params: { marketId: ref } });

describe("the watchlist API", () => {
  it("starts empty, stars markets newest first, and answers with whole market records", async () => {
    const { key } = await makeKey("free");
    expect(await list(key)).toEqual([]);
    const first = await put(key, firstId);
    expect(first.status).toBe(200);
    expect((first.body as { data: MarketPublic }).data).toMatchObject({ marketId: firstId, title: "First starred market" });
    await put(key, secondId);
    expect(await list(key)).toEqual([secondId, firstId]);
    const res = await callRoute(listWatchlist, { path: "/v0/watchlist", key });
    const market = (res.body as { data: MarketPublic[] }).data[1];
    expect(market?.outcomes.map((o) => o.label)).toEqual(["Yes", "No"]);
  });

  it("PUT and DELETE are idempotent", async () => {
    const { key } = await makeKey("free");
    expect((await put(key, firstId)).status).toBe(200);
    expect((await put(key, firstId)).status).toBe(200);
    expect(await list(key)).toEqual([firstId]);
    expect((await del(key, firstId)).status).toBe(200);
    expect((await del(key, firstId)).status).toBe(200);
    expect(await list(key)).toEqual([]);
  });

  it.each([
    ["venue market id", "wl-one"],
    ["slug", "wl-one-slug"],
    ["contract address", "0xwl1"],
    ["outcome id", "wl-one-yes"],
    ["upper-case UUID", firstId.toUpperCase()],
  ])("accepts the market by %s, as /v0/markets/{id} does", async (_label, ref) => {
    const { key } = await makeKey("free");
    expect((await put(key, ref)).status).toBe(200);
    expect(await list(key)).toEqual([firstId]);
    expect((await del(key, ref)).status).toBe(200);
    expect(await list(key)).toEqual([]);
  });

  it("answers 404 not_found for an unknown market, on PUT and on DELETE, and stores nothing", async () => {
    const { key } = await makeKey("free");
    for (const call of [put, del]) {
      const res = await call(key, "no-such-market");
      expect(res.status).toBe(404);
      expect((res.body as { error: { code: string } }).error.code).toBe("not_found");
    }
    expect(await list(key)).toEqual([]);
  });

  it("keeps each account's watchlist to itself", async () => {
    const alice = await makeKey("free");
    const bob = await makeKey("pro");
    await put(alice.key, firstId);
    await put(bob.key, secondId);
    expect(await list(alice.key)).toEqual([firstId]);
    expect(await list(bob.key)).toEqual([secondId]);
    await del(bob.key, firstId);
    expect(await list(alice.key)).toEqual([firstId]);
  });
});

describe("the watchlist in GET /v0/openapi.json", () => {
  it("documents GET, PUT and DELETE with market bodies that resolve", async () => {
    const res = await callRoute(openapi, { path: "/v0/openapi.json" });
    const doc = res.body as { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } };
    expect(Object.keys(doc.paths["/v0/watchlist"] ?? {})).toEqual(["get"]);
    expect(Object.keys(doc.paths["/v0/watchlist/{marketId}"] ?? {}).sort()).toEqual(["delete", "put"]);
    for (const name of ["Market", "MarketResponse"]) expect(doc.components.schemas[name]).toBeDefined();
  });
});
