import { errorResponse, rateLimitedResponse, schemaOf, unauthorizedResponse, type OpenApiSectionBuilder } from "@/lib/openapi";
import { watchlistItemResponse, watchlistResponse } from "./shapes";
import { MAX_WATCHLIST } from "./watchlist";

const marketParam = {
  name: "marketId",
  in: "path",
  required: true,
  description: "The market: catalog UUID, venue market id, contractAddress, outcomeId or slug (any id GET /v0/markets/{id} accepts).",
  schema: { type: "string" },
};

/** The watchlist endpoints in GET /v0/openapi.json (assembled in app/v0/openapi.json/route.ts); the bodies are derived from ./shapes.ts. */
export const watchlistOpenApi: OpenApiSectionBuilder = () => {
  const marketAnswer = { description: "The market, as GET /v0/markets/{id} answers it.", content: { "application/json": { schema: schemaOf(watchlistItemResponse) } } };
  return {
    paths: {
      "/v0/watchlist": {
        get: {
          operationId: "listWatchlist",
          summary: "The caller's starred markets, most recently starred first",
          description: `Per account (every key of the account and its dashboard session share one list); at most ${MAX_WATCHLIST} markets.`,
          responses: {
            "200": {
              description: "The starred markets.",
              content: { "application/json": { schema: schemaOf(watchlistResponse) } },
            },
            "401": unauthorizedResponse(),
            "429": rateLimitedResponse(),
          },
        },
      },
      "/v0/watchlist/{marketId}": {
        put: {
          operationId: "watchMarket",
          summary: "Star a market (idempotent: starring it again changes nothing)",
          parameters: [marketParam],
          responses: {
            "200": marketAnswer,
            "400": errorResponse(`The watchlist already holds ${MAX_WATCHLIST} markets.`),
            "401": unauthorizedResponse(),
            "404": errorResponse("No market matches the id."),
            "429": rateLimitedResponse(),
          },
        },
        delete: {
          operationId: "unwatchMarket",
          summary: "Unstar a market (idempotent: unstarring a market that is not starred is not an error)",
          parameters: [marketParam],
          responses: {
            "200": marketAnswer,
            "401": unauthorizedResponse(),
            "404": errorResponse("No market matches the id."),
            "429": rateLimitedResponse(),
          },
        },
      },
    },
  };
};
