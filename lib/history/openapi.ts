import { errorResponse, queryParameters, rateLimitedResponse, ref, schemaOf, unauthorizedResponse, type JsonSchema, type OpenApiSectionBuilder } from "@/lib/openapi";
import {
  bookHistoryPage,
  coverageQuery,
  coverageResponse,
  incidentsPage,
  incidentsQuery,
  marketPricesQuery,
  marketPricesResponse,
  orderBookHistoryQuery,
  orderBookQuery,
  recordedBookPublic,
  sparklinesQuery,
  sparklinesResponse,
  tradesPage,
  tradesQuery,
} from "./shapes";

export const pathParameter = (name: string, description: string) => ({ name, in: "path", required: true, description, schema: { type: "string", maxLength: 200 } });

export const badRequest = () => errorResponse("A parameter is invalid (`invalid_parameter`, with `parameter` naming it); no query ran.");

/** A 200 whose body is `schema`: the JSON Schema of the zod shape the answer is parsed through. */
export const ok = (description: string, schema: JsonSchema) => ({ description, content: { "application/json": { schema } } });

const planned = (plan: string) => errorResponse(`Below the ${plan} plan (\`forbidden\`, naming the plan).`);

/** The history endpoints in GET /v0/openapi.json (assembled in app/v0/openapi.json/route.ts). */
export const historyOpenApi: OpenApiSectionBuilder = () => ({
  description: "Order books at any instant, trades, price history for every venue, coverage, incidents and an archive manifest: docs/history.md.",
  paths: {
    "/v0/orderbooks/{outcomeId}": {
      get: {
        operationId: "getRecordedOrderBook",
        summary: "The recorded L2 book of an outcome at an instant, rebuilt from the last snapshot plus every change (Pro and Enterprise)",
        parameters: [pathParameter("outcomeId", "Outcome id (Polymarket CLOB token id)."), ...queryParameters(orderBookQuery)],
        responses: {
          "200": ok("The book.", { type: "object", required: ["data"], properties: { data: ref("RecordedOrderBook") } }),
          "400": badRequest(),
          "401": unauthorizedResponse(),
          "403": planned("pro"),
          "404": errorResponse("Unknown outcome, a venue that is not recorded, or no book recorded at or before `at`."),
          "429": rateLimitedResponse(),
        },
      },
    },
    "/v0/orderbooks/{outcomeId}/history": {
      get: {
        operationId: "getRecordedOrderBookHistory",
        summary: "Recorded books on a 1m/5m/1h grid, oldest first, at most 1,000 a call with a cursor (Pro and Enterprise)",
        parameters: [pathParameter("outcomeId", "Outcome id (Polymarket CLOB token id)."), ...queryParameters(orderBookHistoryQuery, ["since"])],
        responses: {
          "200": ok("A page of books. It starts at the first grid point at or after the first book recorded at or after `since`; a page is empty only when nothing is left in the window.", { type: "object", required: ["data", "meta"], properties: { data: { type: "array", items: ref("RecordedOrderBook") }, meta: schemaOf(bookHistoryPage.shape.meta) } }),
          "400": badRequest(),
          "401": unauthorizedResponse(),
          "403": planned("pro"),
          "404": errorResponse("Unknown outcome or a venue that is not recorded."),
          "429": rateLimitedResponse(),
        },
      },
    },
    "/v0/trades/{outcomeId}": {
      get: {
        operationId: "getRecordedTrades",
        summary: "Recorded trades of an outcome (Polymarket last_trade_price), newest first, with a cursor (Pro and Enterprise)",
        parameters: [pathParameter("outcomeId", "Outcome id (Polymarket CLOB token id)."), ...queryParameters(tradesQuery)],
        responses: {
          "200": ok("A page of trades.", schemaOf(tradesPage)),
          "400": badRequest(),
          "401": unauthorizedResponse(),
          "403": planned("pro"),
          "404": errorResponse("Unknown outcome or a venue that is not recorded."),
          "429": rateLimitedResponse(),
        },
      },
    },
    "/v0/markets/{id}/prices": {
      get: {
        operationId: "getMarketPrices",
        summary: "Price history of any venue's market: per outcome OHLC of the catalog's price snapshots, 1h or 1d buckets (every plan)",
        parameters: [pathParameter("id", "Catalog UUID, slug, venue market id, contractAddress or an outcomeId."), ...queryParameters(marketPricesQuery)],
        responses: {
          "200": ok("Candles per outcome, oldest first; a bucket without a snapshot is absent.", schemaOf(marketPricesResponse)),
          "400": badRequest(),
          "401": unauthorizedResponse(),
          "404": errorResponse("No market matches the reference."),
          "429": rateLimitedResponse(),
        },
      },
    },
    "/v0/prices/sparklines": {
      get: {
        operationId: "getPriceSparklines",
        summary: "Seven days of hourly closes of each market's first outcome, for many catalog markets in one call (every plan)",
        parameters: queryParameters(sparklinesQuery, ["marketIds"]),
        responses: {
          "200": ok("One entry per market with snapshots in the last 7 days.", schemaOf(sparklinesResponse)),
          "400": badRequest(),
          "401": unauthorizedResponse(),
          "429": rateLimitedResponse(),
        },
      },
    },
    "/v0/coverage": {
      get: {
        operationId: "getCoverage",
        summary: "What the archive holds per asset: first/last event, rows by type, one condition per UTC hour (available, degraded, missing) and the gaps (every plan)",
        parameters: queryParameters(coverageQuery),
        responses: {
          "200": ok("Coverage per asset of the market (or the one outcome).", schemaOf(coverageResponse)),
          "400": badRequest(),
          "401": unauthorizedResponse(),
          "404": errorResponse("Unknown outcome or market."),
          "429": rateLimitedResponse(),
        },
      },
    },
    "/v0/incidents": {
      get: {
        operationId: "listIncidents",
        summary: "What happened to the tick recorder (connections lost with the gap, assets added/dropped, malformed frames, lag, back-pressure, insert failures), newest first (every plan)",
        parameters: queryParameters(incidentsQuery),
        responses: {
          "200": ok("A page of incidents.", schemaOf(incidentsPage)),
          "400": badRequest(),
          "401": unauthorizedResponse(),
          "429": rateLimitedResponse(),
        },
      },
    },
  },
  schemas: { RecordedOrderBook: schemaOf(recordedBookPublic) },
});
