import { badRequest, ok } from "@/lib/history/openapi";
import { errorResponse, queryParameters, rateLimitedResponse, ref, schemaOf, unauthorizedResponse, type OpenApiSectionBuilder } from "@/lib/openapi";
import { episodesQuery, episodesResponse, feesQuery, feesResponse, spreadPointPublic, spreadsPage, spreadsQuery, spreadStreamQuery } from "./shapes";

const pairParameters = [
  { name: "a", in: "path", required: true, description: "Side A: a market (any id /v0/markets/{id} accepts; its Yes outcome) or an outcome id.", schema: { type: "string", maxLength: 600 } },
  { name: "b", in: "path", required: true, description: "Side B, on another venue, in the same forms.", schema: { type: "string", maxLength: 600 } },
];

const notFound = () => errorResponse("Unknown market or outcome, or a venue whose books are not recorded.");
const proOnly = () => errorResponse("Below the pro plan (`forbidden`, naming the plan).");

/** The spread endpoints in GET /v0/openapi.json (assembled in app/v0/openapi.json/route.ts). */
export const spreadsOpenApi: OpenApiSectionBuilder = () => ({
  description: "Cross-venue spreads on one clock: both recorded books of a pair, the gross and executable spread after each venue's fees, episodes, fee schedules: docs/spreads.md.",
  paths: {
    "/v0/pairs/{a}/{b}/spreads": {
      get: {
        operationId: "getPairSpreads",
        summary: "The spread of a pair over time: at every change of either book (or on a grid), both books' best levels, the gross spread both ways and the executable spread for a size after fees; unknown where either book is (Pro and Enterprise)",
        parameters: [...pairParameters, ...queryParameters(spreadsQuery)],
        responses: {
          "200": ok("A page of points, oldest first.", { type: "object", required: ["data", "meta"], properties: { data: { type: "array", items: ref("SpreadPoint") }, meta: schemaOf(spreadsPage.shape.meta) } }),
          "400": badRequest(),
          "401": unauthorizedResponse(),
          "403": proOnly(),
          "404": notFound(),
          "429": rateLimitedResponse(),
        },
      },
    },
    "/v0/pairs/{a}/{b}/spreads/stream": {
      get: {
        operationId: "streamPairSpread",
        summary: "The pair's executable spread after fees as Server-Sent Events, priced at every change of either live book (the same as `watchSpread` over /ws, with the same admission and limits; Pro and Enterprise)",
        parameters: [...pairParameters, ...queryParameters(spreadStreamQuery)],
        responses: {
          "200": { description: "An event stream: `subscribed`, then `data` events whose `data` is a SpreadPoint (the newest one when the client is slow), or an `error` event (NOT_RECORDED when a side is not recorded live).", content: { "text/event-stream": { schema: { type: "string" } } } },
          "400": badRequest(),
          "401": unauthorizedResponse(),
          "403": proOnly(),
          "404": notFound(),
          "429": rateLimitedResponse(),
        },
      },
    },
    "/v0/pairs/{a}/{b}/episodes": {
      get: {
        operationId: "getPairEpisodes",
        summary: "Episodes of an executable spread after fees above a threshold (start, end, duration, peak, size at the peak) and a summary per UTC day (Pro and Enterprise)",
        parameters: [...pairParameters, ...queryParameters(episodesQuery)],
        responses: {
          "200": ok("Episodes and days.", schemaOf(episodesResponse)),
          "400": badRequest(),
          "401": unauthorizedResponse(),
          "403": proOnly(),
          "404": notFound(),
          "429": rateLimitedResponse(),
        },
      },
    },
    "/v0/fees": {
      get: {
        operationId: "listFeeSchedules",
        summary: "The venues' taker and maker fee schedules spreads are priced with, each version with its source, effective date and rounding (every plan)",
        parameters: queryParameters(feesQuery),
        responses: { "200": ok("Every schedule version.", schemaOf(feesResponse)), "400": badRequest(), "401": unauthorizedResponse(), "429": rateLimitedResponse() },
      },
    },
  },
  schemas: { SpreadPoint: schemaOf(spreadPointPublic) },
});
