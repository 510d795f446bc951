import { errorResponse, queryParameters, rateLimitedResponse, schemaOf, unauthorizedResponse, type OpenApiSectionBuilder } from "@/lib/openapi";
import { badRequest, ok, pathParameter } from "@/lib/history/openapi";
import { PARQUET_CONTENT_TYPE } from "./download";
import { manifestQuery, manifestResponse } from "./shapes";

const headers = {
  ETag: { description: "The manifest checksum of the hour, quoted (of an outcomes file: its SHA-256).", schema: { type: "string" } },
  "Repr-Digest": { description: "sha-256 of the whole file (RFC 9530).", schema: { type: "string" } },
  "X-Archive-Rows": { description: "Rows in the file.", schema: { type: "integer" } },
  "Accept-Ranges": { description: "bytes", schema: { type: "string" } },
};

/** The archive files in GET /v0/openapi.json (docs/history.md, "Archive files"). */
export const archiveOpenApi: OpenApiSectionBuilder = () => ({
  paths: {
    "/v0/archive/{venue}/{date}/{file}": {
      get: {
        operationId: "getArchiveFile",
        summary:
          "One closed UTC hour of a venue's recorded rows as Parquet (zstd), sorted (timestamp, market, event_type, data), or (outcomes.parquet) a closed UTC day's changes of its markets' outcomes; Range, If-Range, If-None-Match; HEAD for the headers (Enterprise)",
        parameters: [
          pathParameter("venue", "polymarket or kalshi."),
          pathParameter("date", "The UTC day, YYYY-MM-DD."),
          pathParameter("file", "HH.parquet, HH = 00 to 23 (UTC); or outcomes.parquet: every market_outcomes row received that day, sorted (received_time, market, venue_time)."),
          { name: "Range", in: "header", required: false, description: "One byte range: bytes=a-b, a- or -n.", schema: { type: "string" } },
        ],
        responses: {
          "200": { description: "The whole file.", headers, content: { [PARQUET_CONTENT_TYPE]: { schema: { type: "string", format: "binary" } } } },
          "206": { description: "The requested range (Content-Range).", headers, content: { [PARQUET_CONTENT_TYPE]: { schema: { type: "string", format: "binary" } } } },
          "304": { description: "If-None-Match names the current ETag." },
          "400": badRequest(),
          "401": unauthorizedResponse(),
          "403": errorResponse("Below the Enterprise plan (`forbidden`, naming the plan)."),
          "404": errorResponse("No rows in the hour (`not_found`, with the hour's `condition`: available, degraded or missing); no outcome change received that day (`not_found`, with `date`)."),
          "416": { description: "The range starts past the end of the file (Content-Range: bytes */size)." },
          "429": rateLimitedResponse(),
        },
      },
    },
    "/v0/archive/manifest": {
      get: {
        operationId: "getArchiveManifest",
        summary: "Per UTC hour of a day: rows, assets, a SHA-256 over the hour's rows in a documented order, and the hour's condition (every plan)",
        parameters: queryParameters(manifestQuery, ["date"]),
        responses: {
          "200": ok("The day's hours (up to now).", schemaOf(manifestResponse)),
          "400": badRequest(),
          "401": unauthorizedResponse(),
          "429": rateLimitedResponse(),
        },
      },
    },
  },
});
