import "client-only";
import { MAX_QUERY_LENGTH } from "@/lib/catalog/limits";
import type { MarketPublic } from "@/lib/catalog/shapes";

/**
 * The catalog page's whole state lives in its URL (a view can be shared): parsed leniently here
 * (an unknown value falls back to the default instead of breaking the page; the API still
 * validates what it is sent) and written back canonically, defaults omitted.
 */

export type CatalogView = "markets" | "events" | "watchlist";

/** The list orders of GET /v0/markets and /v0/events (`sort=`), with the labels the sort menu shows. */
export const catalogSorts = {
  volume24h: "24h volume",
  change24h: "24h change (largest move)",
  liquidity: "Liquidity",
  resolutionDate: "Resolution date (soonest)",
  newest: "Newest",
} as const;
export type CatalogSort = keyof typeof catalogSorts;

export function isCatalogSort(value: string): value is CatalogSort {
  return Object.hasOwn(catalogSorts, value);
}

export interface CatalogState {
  view: CatalogView;
  query: string;
  exchange: string;
  category: string;
  closed: boolean;
  sort: CatalogSort;
  cursor: string;
  /** 1-based page number of the cursor walk (the "51–64 of 64" line); 1 without a cursor. */
  page: number;
}

export const CATALOG_PAGE_SIZE = 25;

export const defaultCatalogState: CatalogState = {
  view: "markets",
  query: "",
  exchange: "",
  category: "",
  closed: false,
  sort: "volume24h",
  cursor: "",
  page: 1,
};

export function parseCatalogState(params: URLSearchParams, known: { exchanges: readonly string[]; categories: readonly string[] }): CatalogState {
  const exchange = params.get("exchange") ?? "";
  const category = params.get("category") ?? "";
  const view = params.get("view");
  const sort = params.get("sort") ?? "";
  const cursor = params.get("cursor") ?? "";
  const page = Number(params.get("page") ?? "1");
  return {
    view: view === "events" || view === "watchlist" ? view : "markets",
    query: (params.get("q") ?? "").slice(0, MAX_QUERY_LENGTH),
    exchange: known.exchanges.includes(exchange) ? exchange : "",
    category: known.categories.includes(category) ? category : "",
    closed: params.get("closed") === "true",
    sort: isCatalogSort(sort) ? sort : "volume24h",
    cursor,
    page: cursor !== "" && Number.isInteger(page) && page > 1 && page <= 1_000_000 ? page : 1,
  };
}

/** The page URL's query string for a state ("" for the default view). */
export function catalogSearch(state: CatalogState): string {
  const params = new URLSearchParams();
  if (state.view !== "markets") params.set("view", state.view);
  if (state.query.trim() !== "") params.set("q", state.query.trim());
  if (state.exchange !== "") params.set("exchange", state.exchange);
  if (state.category !== "") params.set("category", state.category);
  if (state.closed) params.set("closed", "true");
  if (state.sort !== "volume24h") params.set("sort", state.sort);
  if (state.cursor !== "") {
    params.set("cursor", state.cursor);
    if (state.page > 1) params.set("page", String(state.page));
  }
  const search = params.toString();
  return search === "" ? "" : `?${search}`;
}

/**
 * The API request that serves a state: GET /v0/markets or /v0/events with the same filters and
 * sort, or GET /v0/watchlist (the account's starred markets, filtered in the page).
 */
export function catalogApiPath(state: CatalogState, limit: number = CATALOG_PAGE_SIZE): string {
  if (state.view === "watchlist") return "/v0/watchlist";
  const params = new URLSearchParams({ limit: String(limit) });
  if (state.query.trim() !== "") params.set("query", state.query.trim());
  if (state.exchange !== "") params.set("exchange", state.exchange);
  if (state.category !== "") params.set("category", state.category);
  if (state.closed) params.set("closed", "true");
  if (state.sort !== "volume24h") params.set("sort", state.sort);
  if (state.cursor !== "") params.set("cursor", state.cursor);
  return `/v0/${state.view}?${params.toString()}`;
}

/** "1–25 of 64", "51–64 of 64", "51–75 of about 12,400": where a page sits in the whole list. */
export function pageRange(page: number, count: number, pageSize: number, total: { exact: number | null; estimate: number | null }): string {
  const format = new Intl.NumberFormat("en-US");
  const first = (page - 1) * pageSize + 1;
  const last = first + count - 1;
  if (count === 0) return total.exact !== null ? `0 of ${format.format(total.exact)}` : "0";
  const span = `${format.format(first)}–${format.format(last)}`;
  if (total.exact !== null) return `${span} of ${format.format(total.exact)}`;
  if (total.estimate !== null) return `${span} of about ${format.format(total.estimate)}`;
  return span;
}

const largestMove = (m: MarketPublic) => Math.max(0, ...m.outcomes.map((o) => Math.abs(o.priceChange24h)));
const time = (value: string | null | undefined) => (value === null || value === undefined ? Number.NaN : Date.parse(value));

/**
 * The Watchlist view: the starred markets (one short list, GET /v0/watchlist) with the page's
 * filters and sort applied in the browser, in the same order the API would list them.
 */
export function filterWatchlist(markets: readonly MarketPublic[], state: CatalogState): MarketPublic[] {
  const query = state.query.trim().toLowerCase();
  const kept = markets.filter(
    (m) =>
      (state.closed || !m.closed) &&
      (state.exchange === "" || m.exchange === state.exchange) &&
      (state.category === "" || m.category === state.category) &&
      (query === "" || m.title.toLowerCase().includes(query) || (m.slug ?? "").toLowerCase().includes(query)),
  );
  const descending = (a: number, b: number) => (Number.isNaN(a) ? (Number.isNaN(b) ? 0 : 1) : Number.isNaN(b) ? -1 : b - a);
  const compare: Record<CatalogSort, (a: MarketPublic, b: MarketPublic) => number> = {
    volume24h: (a, b) => b.volume24h - a.volume24h,
    change24h: (a, b) => largestMove(b) - largestMove(a),
    liquidity: (a, b) => descending(a.liquidity ?? Number.NaN, b.liquidity ?? Number.NaN),
    // Soonest first: descending on the negated time; unknown dates last.
    resolutionDate: (a, b) => descending(-time(a.resolutionDate), -time(b.resolutionDate)),
    newest: (a, b) => descending(time(a.firstSeenAt), time(b.firstSeenAt)),
  };
  return kept.sort((a, b) => compare[state.sort](a, b) || a.marketId.localeCompare(b.marketId));
}
