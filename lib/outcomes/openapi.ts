import { errorResponse, queryParameters, rateLimitedResponse, schemaOf, unauthorizedResponse, type OpenApiSectionBuilder } from "@/lib/openapi";
import { resolutionsQuery, resolutionsResponse } from "./list";

/** The outcomes endpoints in GET /v0/openapi.json (the `resolution` of market answers is in the catalog's market schema). */
export const outcomesOpenApi: OpenApiSectionBuilder = () => ({
  paths: {
    "/v0/resolutions": {
      get: {
        operationId: "listResolutions",
        summary: "Every change of a market's outcome, in the order Brier learned them",
        description:
          "One entry per lifecycle change a venue stated (closed, proposed, disputed, determined, settled, voided; an amended result is a new entry, every earlier one stays). The same rows are the ClickHouse table market_outcomes in POST /v0/sql; a market's current outcome is its `resolution` (docs/outcomes.md).",
        parameters: queryParameters(resolutionsQuery),
        responses: {
          "200": { description: "A page of changes.", content: { "application/json": { schema: schemaOf(resolutionsResponse) } } },
          "400": errorResponse("A parameter is invalid (the error names it)."),
          "401": unauthorizedResponse(),
          "429": rateLimitedResponse(),
        },
      },
    },
  },
});
