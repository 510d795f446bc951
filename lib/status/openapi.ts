import { errorResponse, unauthorizedResponse, type OpenApiSectionBuilder } from "@/lib/http/openapi";

/** GET /v0/status and GET /v0/health in GET /v0/openapi.json (assembled in app/v0/openapi.json/route.ts). */
export const statusOpenApi: OpenApiSectionBuilder = () => ({
  paths: {
    "/v0/status": {
      get: {
        operationId: "getStatus",
        summary: "Ingestion status: per catalog venue the last run, outcome, counts, error and data age; the tick recorder",
        responses: {
          "200": { description: "Status sections by subsystem.", content: { "application/json": { schema: { type: "object" } } } },
          "401": unauthorizedResponse(),
        },
      },
    },
  },
});

export const healthOpenApi: OpenApiSectionBuilder = () => ({
  paths: {
    "/v0/health": {
      get: {
        operationId: "getHealth",
        summary: "Liveness of both stores (no key)",
        security: [],
        responses: { "200": { description: "Both stores answer." }, "503": errorResponse("A store does not answer.") },
      },
    },
  },
});
