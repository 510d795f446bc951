/**
 * The catalog page's whole state lives in its URL (a view can be shared): parsed leniently here
 * (an unknown value falls back to the default instead of breaking the page; the API still
 * validates what it is sent) and written back canonically, defaults omitted.
 */

export type CatalogView = "markets" | "events";

export interface CatalogState {
  view: CatalogView;
  query: string;
  exchange: string;
  category: string;
  closed: boolean;
  cursor: string;
}

export const CATALOG_PAGE_SIZE = 25;
export const MAX_QUERY_LENGTH = 200;

export const defaultCatalogState: CatalogState = { view: "markets", query: "", exchange: "", category: "", closed: false, cursor: "" };

export function parseCatalogState(params: URLSearchParams, known: { exchanges: readonly string[]; categories: readonly string[] }): CatalogState {
  const exchange = params.get("exchange") ?? "";
  const category = params.get("category") ?? "";
  return {
    view: params.get("view") === "events" ? "events" : "markets",
    query: (params.get("q") ?? "").slice(0, MAX_QUERY_LENGTH),
    exchange: known.exchanges.includes(exchange) ? exchange : "",
    category: known.categories.includes(category) ? category : "",
    closed: params.get("closed") === "true",
    cursor: params.get("cursor") ?? "",
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
  if (state.cursor !== "") params.set("cursor", state.cursor);
  const search = params.toString();
  return search === "" ? "" : `?${search}`;
}

/** The API request that serves a state: GET /v0/markets or /v0/events with the same filters. */
export function catalogApiPath(state: CatalogState, limit: number = CATALOG_PAGE_SIZE): string {
  const params = new URLSearchParams({ limit: String(limit) });
  if (state.query.trim() !== "") params.set("query", state.query.trim());
  if (state.exchange !== "") params.set("exchange", state.exchange);
  if (state.category !== "") params.set("category", state.category);
  if (state.closed) params.set("closed", "true");
  if (state.cursor !== "") params.set("cursor", state.cursor);
  return `/v0/${state.view}?${params.toString()}`;
}
