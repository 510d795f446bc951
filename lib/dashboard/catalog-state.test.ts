import { describe, expect, it } from "vitest";
import { catalogApiPath, catalogSearch, defaultCatalogState, parseCatalogState } from "./catalog-state";

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
  ])("parses %s", (search, expected) => {
    expect(parseCatalogState(new URLSearchParams(search), known)).toEqual(expected);
  });

  it("caps the query at the API's limit", () => {
    expect(parseCatalogState(new URLSearchParams({ q: "x".repeat(500) }), known).query).toHaveLength(200);
  });

  it("round-trips through the page URL and omits defaults", () => {
    const state = { view: "events" as const, query: " rain ", exchange: "polymarket", category: "Politics", closed: true, cursor: "c1" };
    const search = catalogSearch(state);
    expect(search).toBe("?view=events&q=rain&exchange=polymarket&category=Politics&closed=true&cursor=c1");
    expect(parseCatalogState(new URLSearchParams(search), known)).toEqual({ ...state, query: "rain" });
    expect(catalogSearch(defaultCatalogState)).toBe("");
  });

  it("asks the API for the same view, filters and cursor", () => {
    expect(catalogApiPath({ ...defaultCatalogState, query: "fed", exchange: "mock" }, 10)).toBe("/v0/markets?limit=10&query=fed&exchange=mock");
    expect(catalogApiPath({ ...defaultCatalogState, view: "events", closed: true, cursor: "c" }, 25)).toBe(
      "/v0/events?limit=25&closed=true&cursor=c",
    );
  });
});
