import { errorResponse, unauthorizedResponse, type OpenApiSectionBuilder } from "@/lib/openapi";

/** GET /v0/status and GET /v0/health in GET /v0/openapi.json (assembled in app/v0/openapi.json/route.ts). */
export const statusOpenApi: OpenApiSectionBuilder = () => ({
  paths: {
    "/v0/status": {
      get: {
        operationId: "getStatus",
        summary: "Ingestion status: per catalog venue the last run, outcome, counts, error and data age; the tick recorder; identity pairs audited by outcomes (`pairs`: resolved, disagreed)",
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
        summary: "Readiness (no key): the stores' last background probe, taken every 5 s, with its time and age; never waits on the stores",
        security: [],
        responses: {
          "200": {
            description:
              "Both stores answered the last probe: `{status, stores, checkedAt, ageMs}`. A store is `ok`, or `idle` when it is an embedded engine this process has not opened yet (it opens at its first use; the probe never opens it).",
          },
          "503": errorResponse("A store did not answer the last probe (a probe older than 15 s is taken again before answering)."),
        },
      },
    },
    "/v0/health/live": {
      get: {
        operationId: "getLiveness",
        summary: "Liveness (no key): the process answers; no store is touched",
        security: [],
        responses: { "200": { description: "`{status: \"ok\"}`." } },
      },
    },
  },
});
