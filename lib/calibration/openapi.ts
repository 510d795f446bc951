import { badRequest, ok } from "@/lib/history/openapi";
import { errorResponse, queryParameters, rateLimitedResponse, ref, schemaOf, unauthorizedResponse, type OpenApiSectionBuilder } from "@/lib/openapi";
import { calibrationFigure, calibrationMarketPublic, calibrationMarketsQuery, calibrationMarketsResponse, calibrationQuery, calibrationResponse, headToHeadPublic } from "./shapes";

const proOnly = () => errorResponse("Below the pro plan (`forbidden`, naming the plan).");

/** The calibration endpoints in GET /v0/openapi.json (assembled in app/v0/openapi.json/route.ts). */
export const calibrationOpenApi: OpenApiSectionBuilder = () => ({
  description:
    "Calibration: how well each venue's prices foretold the outcomes of its markets, at horizons before the close, from recorded books (mid, and the ask a taker pays) or the catalog's price history; head to head on identity pairs: docs/calibration.md.",
  paths: {
    "/v0/calibration": {
      get: {
        operationId: "getCalibration",
        summary:
          "Brier score, log loss and reliability bins (mean forecast, observed frequency, count, Wilson interval) per venue and horizon over the markets that resolved in a window; each venue's Brier score on the same questions for identity pairs (Pro and Enterprise)",
        parameters: queryParameters(calibrationQuery),
        responses: {
          "200": ok("Figures per venue and horizon, and the head to head.", {
            type: "object",
            required: ["data", "headToHead", "meta"],
            properties: { data: { type: "array", items: ref("CalibrationFigure") }, headToHead: { type: "array", items: ref("CalibrationHeadToHead") }, meta: schemaOf(calibrationResponse.shape.meta) },
          }),
          "400": badRequest(),
          "401": unauthorizedResponse(),
          "403": proOnly(),
          "429": rateLimitedResponse(),
        },
      },
    },
    "/v0/calibration/markets": {
      get: {
        operationId: "listCalibrationMarkets",
        summary: "The markets behind a figure: each one's forecast at the horizon, where it came from and when, and what Yes settled at, oldest close first (Pro and Enterprise)",
        parameters: queryParameters(calibrationMarketsQuery, ["venue", "horizon"]),
        responses: {
          "200": ok("A page of markets.", {
            type: "object",
            required: ["data", "meta"],
            properties: { data: { type: "array", items: ref("CalibrationMarket") }, meta: schemaOf(calibrationMarketsResponse.shape.meta) },
          }),
          "400": badRequest(),
          "401": unauthorizedResponse(),
          "403": proOnly(),
          "429": rateLimitedResponse(),
        },
      },
    },
  },
  schemas: { CalibrationFigure: schemaOf(calibrationFigure), CalibrationHeadToHead: schemaOf(headToHeadPublic), CalibrationMarket: schemaOf(calibrationMarketPublic) },
});
