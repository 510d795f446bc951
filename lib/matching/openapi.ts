import { errorResponse, rateLimitedResponse, ref, schemaOf, unauthorizedResponse, type OpenApiSectionBuilder } from "@/lib/openapi";
import {
  arbitrageQuery,
  arbitrageResponse,
  browseEventMatchesResponse,
  eventMatchesQuery,
  eventMatchesResponse,
  eventsMatchesQuery,
  marketMatchesQuery,
  marketMatchesResponse,
  matchedMarketsQuery,
  matchedPairsResponse,
} from "./shapes";

type Params = Record<string, { description?: string }>;

/** Query parameters from a zod object's fields (all strings on the wire). */
function queryParameters(shape: Params) {
  return Object.entries(shape).map(([name, field]) => ({
    in: "query",
    name,
    required: false,
    schema: { type: "string" },
    description: field.description ?? "",
  }));
}

const idParameter = (what: string) => ({
  in: "path",
  name: "id",
  required: true,
  schema: { type: "string" },
  description: `${what} catalog UUID, slug or venue id (every form GET /v0/${what === "Market" ? "markets" : "events"}/{id} accepts${what === "Market" ? ", also contract address or outcome id" : ""}, and a percent-encoded Polymarket or Kalshi page URL).`,
});

const ok = (description: string, schema: string) => ({ description, content: { "application/json": { schema: ref(schema) } } });

const common = (extra: Record<string, unknown> = {}) => ({
  "400": errorResponse("A parameter is invalid; `error.parameter` names it."),
  "401": unauthorizedResponse(),
  "429": rateLimitedResponse(),
  ...extra,
});

/** The matching endpoints (pmxt's hosted paths) in GET /v0/openapi.json. */
export const matchingOpenApi: OpenApiSectionBuilder = () => ({
  paths: {
    "/v0/markets/{id}/matches": {
      get: {
        operationId: "getMarketMatches",
        summary: "The same question on other venues: relation, confidence and reasoning per match",
        parameters: [idParameter("Market"), ...queryParameters(marketMatchesQuery.shape as Params)],
        responses: { "200": ok("The market and its matches, strongest first.", "MarketMatches"), ...common({ "404": errorResponse("No such market.") }) },
      },
    },
    "/v0/events/{id}/matches": {
      get: {
        operationId: "getEventMatches",
        summary: "Events on other venues matching this event's markets, with the market-level matches",
        parameters: [idParameter("Event"), ...queryParameters(eventMatchesQuery.shape as Params)],
        responses: { "200": ok("The event and its matched events.", "EventMatches"), ...common({ "404": errorResponse("No such event.") }) },
      },
    },
    "/v0/matched-markets": {
      get: {
        operationId: "getMatchedMarkets",
        summary: "Matched pairs across venues, largest Yes price difference first",
        parameters: queryParameters(matchedMarketsQuery.shape as Params),
        responses: { "200": ok("Matched pairs.", "MatchedPairs"), ...common() },
      },
    },
    "/v0/matched-prices": {
      get: {
        operationId: "getMatchedPrices",
        summary: "pmxt's older name of /v0/matched-markets (same pairs)",
        parameters: queryParameters(matchedMarketsQuery.shape as Params),
        responses: { "200": ok("Matched pairs.", "MatchedPairs"), ...common() },
      },
    },
    "/v0/events/matches": {
      get: {
        operationId: "getEventsMatches",
        summary: "Event pairs across venues with the market matches between them",
        parameters: queryParameters(eventsMatchesQuery.shape as Params),
        responses: { "200": ok("Event pairs.", "EventPairs"), ...common() },
      },
    },
    "/v0/arbitrage": {
      get: {
        operationId: "getArbitrage",
        summary: "Price inconsistencies between matched markets (gross of fees)",
        parameters: queryParameters(arbitrageQuery.shape as Params),
        responses: { "200": ok("Opportunities, largest spread first.", "Arbitrage"), ...common() },
      },
    },
  },
  schemas: {
    MarketMatches: schemaOf(marketMatchesResponse),
    EventMatches: schemaOf(eventMatchesResponse),
    MatchedPairs: schemaOf(matchedPairsResponse),
    EventPairs: schemaOf(browseEventMatchesResponse),
    Arbitrage: schemaOf(arbitrageResponse),
  },
});
