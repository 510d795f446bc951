import { errorResponse, rateLimitedResponse, schemaOf, unauthorizedResponse, type OpenApiSectionBuilder } from "@/lib/openapi";
import { sqlRequestBody } from "./request";

const formatParameter = {
  name: "format",
  in: "query",
  required: false,
  description: "json (default), csv or parquet.",
  schema: { type: "string", enum: ["json", "csv", "parquet"], default: "json" },
};

const responses = () => ({
  "200": {
    description:
      "`{ data: [row objects], meta: { columns: [{name, type}], rows, rows_capped, bytes_capped, statistics: { elapsed, rows_read } } }`; " +
      "at most 10,000 rows and 16 MiB of JSON rows (flagged in `meta` and the `x-rows-capped` / `x-bytes-capped` headers), " +
      "5 s timeout; filter by `market` (the condition id).",
    content: { "application/json": { schema: { type: "object" } } },
  },
  "400": errorResponse("Invalid body or a rejected statement."),
  "401": unauthorizedResponse(),
  "403": errorResponse("Not on the Enterprise plan (`sql_access_denied`)."),
  "408": errorResponse("The query ran past its time limit."),
  "413": errorResponse("Body (or `query` parameter) too large."),
  "429": rateLimitedResponse(),
  "503": errorResponse("Every SQL slot stayed busy for the bounded wait (2 s); retry after `Retry-After` seconds."),
});

/** /v0/sql in GET /v0/openapi.json (assembled in app/v0/openapi.json/route.ts); the body schema is the validating zod schema. */
export const sqlOpenApi: OpenApiSectionBuilder = () => ({
  paths: {
    "/v0/sql": {
      post: {
        operationId: "runSql",
        summary: "One read-only SQL statement over recorded Polymarket order-book ticks (Enterprise plan)",
        parameters: [formatParameter],
        requestBody: { required: true, content: { "application/json": { schema: schemaOf(sqlRequestBody) } } },
        responses: responses(),
      },
      get: {
        operationId: "runSqlFromQuery",
        summary: "The same as POST, with the statement in the `query` parameter (at most 8 KiB)",
        parameters: [{ name: "query", in: "query", required: true, description: "One SQL statement.", schema: { type: "string" } }, formatParameter],
        responses: responses(),
      },
    },
  },
});
