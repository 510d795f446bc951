import { unauthorizedResponse, type OpenApiSectionBuilder } from "@/lib/openapi";

/** GET /v0/account in GET /v0/openapi.json (assembled in app/v0/openapi.json/route.ts). */
export const accountOpenApi: OpenApiSectionBuilder = () => ({
  paths: {
    "/v0/account": {
      get: {
        operationId: "getAccount",
        summary: "Whose key this is, its plan and rate limit",
        responses: {
          "200": { description: "The account.", content: { "application/json": { schema: { type: "object" } } } },
          "401": unauthorizedResponse(),
        },
      },
    },
  },
});
