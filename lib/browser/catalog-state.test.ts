import { describe, expect, it } from "vitest";
import type { MarketPublic } from "@/lib/catalog/shapes";
import { catalogApiPath, catalogSearch, defaultCatalogState, filterWatchlist, pageRange, parseCatalogState } from "./catalog-state";

const known = { exchanges: ["mock", "polymarket"], categories: ["Politics", "Science & Tech"] };

describe("catalog URL state", () => {
  it.each([
    ["", defaultCatalogState],
    ["?view=events", { ...defaultCatalogState, view: "events" }],
    ["?view=bogus&q=fed", { ...defaultCatalogState, query: "fed" }],
    ["?exchange=nope&category=Nope&closed=maybe", defaultCatalogState],
    [
      "?exchange=mock&category=Science+%26+Tech&closed=true&cursor=abc",
      { ...defaultCatalogState, exchange: "mock", category: "Science & Tech", closed: true, cursor: "abc" },
    ],
    ["?view=watchlist&sort=change24h", { ...defaultCatalogState, view: "watchlist", sort: "change24h" }],
    ["?sort=bogus&page=3", defaultCatalogState],
    ["?cursor=c&page=3", { ...defaultCatalogState, cursor: "c", page: 3 }],
    ["?cursor=c&page=-2", { ...defaultCatalogState, cursor: "c" }],
    ["?cursor=c&page=2.5", { ...defaultCatalogState, cursor: "c" }],
  ])("parses %s", (search, expected) => {
    expect(parseCatalogState(new URLSearchParams(search), known)).toEqual(expected);
  });

  it("caps the query at the API's limit", () => {
    expect(parseCatalogState(new URLSearchParams({ q: "x".repeat(500) }), known).query).toHaveLength(200);
  });

  it("round-trips through the page URL and omits defaults", () => {
    const state = { view: "events" as const, query: " rain ", exchange: "polymarket", category: "Politics", closed: true, sort: "newest" as const, cursor: "c1", page: 2 };
    const search = catalogSearch(state);
    expect(search).toBe("?view=events&q=rain&exchange=polymarket&category=Politics&closed=true&sort=newest&cursor=c1&page=2");
    expect(parseCatalogState(new URLSearchParams(search), known)).toEqual({ ...state, query: "rain" });
    expect(catalogSearch(defaultCatalogState)).toBe("");
  });

  it("asks the API for the same view, filters and cursor", () => {
    expect(catalogApiPath({ ...defaultCatalogState, query: "fed", exchange: "mock" }, 10)).toBe("/v0/markets?limit=10&query=fed&exchange=mock");
    expect(catalogApiPath({ ...defaultCatalogState, view: "events", closed: true, cursor: "c" }, 25)).toBe(
      "/v0/events?limit=25&closed=true&cursor=c",
    );
    expect(catalogApiPath({ ...defaultCatalogState, sort: "resolutionDate" }, 25)).toBe("/v0/markets?limit=25&sort=resolutionDate");
    expect(catalogApiPath({ ...defaultCatalogState, view: "watchlist", sort: "newest" }, 25)).toBe("/v0/watchlist");
  });

  it.each([
    [1, 25, { exact: 64, estimate: null }, "1–25 of 64"],
    [3, 14, { exact: 64, estimate: null }, "51–64 of 64"],
    [3, 25, { exact: null, estimate: 12400 }, "51–75 of about 12,400"],
    [1, 0, { exact: 0, estimate: null }, "0 of 0"],
    [2, 25, { exact: null, estimate: null }, "26–50"],
  ])("page %i with %i rows reads as a range of the whole list", (page, count, total, expected) => {
    expect(pageRange(page, count, 25, total)).toBe(expected);
  });
});

describe("the Watchlist view's filters and sorts", () => {
  const m = (id: string, fields: Partial<MarketPublic>): MarketPublic =>
    ({
      marketId: id,
      exchange: "mock",
      title: `Market ${id}`,
      slug: null,
      category: "Crypto",
      closed: false,
      volume24h: 0,
      liquidity: null,
      resolutionDate: null,
      firstSeenAt: "2026-01-01T00:00:00.000Z",
      outcomes: [],
      ...fields,
    }) as MarketPublic;
  const list = [
    m("a", { volume24h: 5, liquidity: 10, resolutionDate: "2027-03-01T00:00:00Z", firstSeenAt: "2026-02-01T00:00:00Z" }),
    m("b", { volume24h: 9, resolutionDate: "2026-12-01T00:00:00Z", outcomes: [{ outcomeId: "x", label: "Yes", price: 0.5, priceChange24h: -0.2 }] }),
    m("c", { volume24h: 1, liquidity: 50, exchange: "kalshi", title: "Fed decision", firstSeenAt: "2026-03-01T00:00:00Z" }),
    m("d", { volume24h: 100, closed: true }),
  ];
  const ids = (state: Partial<typeof defaultCatalogState>) => filterWatchlist(list, { ...defaultCatalogState, view: "watchlist", ...state }).map((x) => x.marketId);

  it.each([
    [{}, ["b", "a", "c"]],
    [{ closed: true }, ["d", "b", "a", "c"]],
    [{ sort: "change24h" as const }, ["b", "a", "c"]],
    [{ sort: "liquidity" as const }, ["c", "a", "b"]],
    [{ sort: "resolutionDate" as const }, ["b", "a", "c"]],
    [{ sort: "newest" as const }, ["c", "a", "b"]],
    [{ exchange: "kalshi" }, ["c"]],
    [{ query: "FED" }, ["c"]],
  ])("%j", (state, expected) => {
    expect(ids(state)).toEqual(expected);
  });
});
