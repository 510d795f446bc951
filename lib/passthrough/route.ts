import "server-only";
import { AppError, NotFoundError } from "@/lib/errors";
import { findMethod, isExchangeKey, type MethodSpec } from "@/lib/venues/registry";
import type { PassthroughInput } from "./call";

/**
 * Router methods Brier can answer: the ones backed by /v0/markets and /v0/events, and the ones
 * backed by Brier's matching endpoints (/v0/markets/{id}/matches, /v0/matched-markets,
 * /v0/arbitrage, ...; lib/matching). The router instance calls Brier's own base URL with the
 * caller's key, so each concern keeps its one home. The rest (cross-venue order books) need
 * exchange instances the router is not given.
 */
const routerMethods = new Set([
  "loadMarkets",
  "fetchMarkets",
  "fetchMarketsPaginated",
  "fetchEvents",
  "fetchEventsPaginated",
  "fetchMarket",
  "fetchEvent",
  "filterMarkets",
  "filterEvents",
  "getExecutionPrice",
  "getExecutionPriceDetailed",
  "close",
  "fetchMarketMatches",
  "fetchEventMatches",
  "fetchMatchedMarkets",
  "fetchMatchedPrices",
  "fetchArbitrage",
  "compareMarketPrices",
  "fetchRelatedMarkets",
  "fetchHedges",
]);

/** Deprecated router methods missing from pmxt-core's method table, served by the method they delegate to. */
const routerAliases: Record<string, string> = { fetchMatches: "fetchMarketMatches" };

/** Step 1 of a call: the exchange and method of the path exist, and the method takes this verb. */
export function resolveRoute(exchange: string, method: string, input: PassthroughInput["kind"]): MethodSpec {
  if (!isExchangeKey(exchange)) throw new NotFoundError("exchange", exchange);
  const spec = findMethod(exchange === "router" && Object.hasOwn(routerAliases, method) ? (routerAliases[method] ?? method) : method);
  if (spec === undefined) throw new NotFoundError("method", method);
  if (input === "query" && spec.verb !== "get") {
    throw new AppError("method_not_allowed", `Method '${spec.name}' is not available via GET; use POST /api/${exchange}/${spec.name}.`);
  }
  return spec;
}

/** The router answers catalog and matching reads only (checked after the args, as pmxt's sidecar would). */
export function assertRouterServes(exchange: string, spec: MethodSpec): void {
  if (exchange === "router" && !routerMethods.has(spec.name)) {
    throw new AppError(
      "not_implemented",
      `router.${spec.name} is not served by Brier's router; it answers ${[...routerMethods].join(", ")}.`,
      { exchange: "router" },
    );
  }
}
