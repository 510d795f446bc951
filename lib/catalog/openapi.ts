import { z } from "zod";
import { errorCodes } from "@/lib/errors";
import { sqlRequestBody } from "@/lib/sql/request";
import { categories } from "./categories";
import {
  DEFAULT_LIMIT,
  eventPublic,
  listQueryParameters,
  marketPublic,
  MAX_LIMIT,
  outcomePublic,
} from "./shapes";
import { exchangeKeys } from "./venues";

type JsonSchema = Record<string, unknown>;

/** JSON Schema 2020-12 (what OpenAPI 3.1 uses) of a zod schema, without the `$schema` header. */
function schemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as JsonSchema;
  return rest;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * What the zod schemas cannot express in JSON Schema (preprocessing, refinements, defaults of
 * a query string) is added here; everything else, including every description, comes from them.
 */
const parameterOverrides: Record<string, JsonSchema> = {
  limit: { minimum: 1, default: DEFAULT_LIMIT },
  offset: { default: 0 },
  closed: { type: "boolean", default: false, anyOf: undefined },
  exchange: { enum: [...exchangeKeys] },
  sourceExchange: { enum: [...exchangeKeys] },
};

function listParameters(): JsonSchema[] {
  return Object.entries(listQueryParameters.shape).map(([name, schema]) => {
    const { description, ...json } = schemaOf(schema as z.ZodType);
    const merged = Object.fromEntries(
      Object.entries({ ...json, ...parameterOverrides[name] }).filter(([, v]) => v !== undefined),
    );
    return { name, in: "query", required: false, description, schema: merged };
  });
}

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: ref("Error") } },
});

const listResponses = (schemaName: string) => ({
  "200": { description: "A page of results.", content: { "application/json": { schema: ref(schemaName) } } },
  "400": errorResponse("A parameter is invalid (`invalid_parameter`, with `parameter` naming it); no query ran."),
  "401": errorResponse("Missing, malformed, unknown or revoked API key."),
  "429": errorResponse("Rate limit exceeded; see Retry-After."),
});

const lookupResponses = (schemaName: string, what: string) => ({
  "200": { description: `The ${what}.`, content: { "application/json": { schema: ref(schemaName) } } },
  "401": errorResponse("Missing, malformed, unknown or revoked API key."),
  "404": errorResponse(`No ${what} matches the reference.`),
  "429": errorResponse("Rate limit exceeded; see Retry-After."),
});

/**
 * GET /v0/openapi.json: the /v0 surface as OpenAPI 3.1. The catalog endpoints and the SQL request
 * body are generated from the zod schemas that validate them; status, account and health bodies are
 * owned by their modules and described in prose.
 */
let built: JsonSchema | undefined;

/** The document, built once per process: the schemas it derives from do not change at run time. */
export function openApiDocument(): JsonSchema {
  built ??= buildOpenApiDocument();
  return built;
}

export function buildOpenApiDocument(): JsonSchema {
  const { markets: _markets, ...eventWithoutMarkets } = eventPublic.shape;
  const eventSchema = schemaOf(z.object(eventWithoutMarkets));
  const eventProperties = (eventSchema.properties ?? {}) as JsonSchema;
  eventProperties.markets = {
    type: "array",
    items: ref("Market"),
    description: eventPublic.shape.markets.description,
  };
  (eventSchema.required as string[]).push("markets");
  const marketSchema = schemaOf(marketPublic);
  const marketProperties = marketSchema.properties as Record<string, JsonSchema>;
  for (const key of ["yes", "no"] as const) {
    marketProperties[key] = { ...ref("Outcome"), description: marketPublic.shape[key].description };
  }
  marketProperties.outcomes = { type: "array", items: ref("Outcome"), description: marketPublic.shape.outcomes.description };

  const meta = {
    type: "object",
    required: ["count", "limit", "offset", "nextCursor"],
    properties: {
      count: { type: "integer", description: "Number of rows in data." },
      limit: { type: "integer", description: `Effective limit (values above ${MAX_LIMIT} are served as ${MAX_LIMIT}).` },
      offset: { type: "integer", description: "Effective offset (0 when a cursor is used)." },
      nextCursor: {
        type: ["string", "null"],
        description: "Pass as `cursor` for the next page; null when this page is the last.",
      },
    },
  };
  const idParameter = (what: string) => ({
    name: "id",
    in: "path",
    required: true,
    description: what,
    schema: { type: "string", maxLength: 512 },
  });

  return {
    openapi: "3.1.0",
    info: {
      title: "Brier catalog API",
      version: "0",
      description:
        "One catalog across prediction-market venues, polled through pmxt-core. Lists are ordered by volume24h " +
        "descending, ties by marketId/eventId descending. Categories: " +
        categories.join(", ") +
        ".",
    },
    servers: [{ url: "/" }],
    security: [{ bearer: [] }],
    paths: {
      "/v0/markets": {
        get: {
          operationId: "listMarkets",
          summary: "Markets across venues, by 24h volume",
          parameters: listParameters(),
          responses: listResponses("MarketList"),
        },
      },
      "/v0/markets/{id}": {
        get: {
          operationId: "getMarket",
          summary: "One market",
          parameters: [idParameter("Catalog UUID, slug, venue market id, contractAddress or an outcomeId.")],
          responses: lookupResponses("MarketResponse", "market"),
        },
      },
      "/v0/events": {
        get: {
          operationId: "listEvents",
          summary: "Events with their nested markets, by 24h volume",
          parameters: listParameters(),
          responses: listResponses("EventList"),
        },
      },
      "/v0/events/{id}": {
        get: {
          operationId: "getEvent",
          summary: "One event with all its markets",
          parameters: [idParameter("Catalog UUID, slug or venue event id.")],
          responses: lookupResponses("EventResponse", "event"),
        },
      },
      "/v0/sql": {
        post: {
          operationId: "runSql",
          summary: "One read-only SQL statement over recorded Polymarket order-book ticks (Enterprise plan)",
          parameters: [
            {
              name: "format",
              in: "query",
              required: false,
              description: "json (default), csv or parquet.",
              schema: { type: "string", enum: ["json", "csv", "parquet"], default: "json" },
            },
          ],
          requestBody: { required: true, content: { "application/json": { schema: schemaOf(sqlRequestBody) } } },
          responses: {
            "200": {
              description:
                "`{ data: [row objects], meta: { columns: [{name, type}], rows, statistics: { elapsed, rows_read } } }`; " +
                "at most 10,000 rows, 5 s timeout; filter by `market` (the condition id).",
              content: { "application/json": { schema: { type: "object" } } },
            },
            "400": errorResponse("Invalid body or a rejected statement."),
            "401": errorResponse("Missing, malformed, unknown or revoked API key."),
            "403": errorResponse("Not on the Enterprise plan (`sql_access_denied`)."),
            "408": errorResponse("The query ran past its time limit."),
            "413": errorResponse("Body too large."),
            "429": errorResponse("Rate limit exceeded; see Retry-After."),
          },
        },
      },
      "/v0/status": {
        get: {
          operationId: "getStatus",
          summary: "Ingestion status: per catalog venue the last run, outcome, counts, error and data age; the tick recorder",
          responses: {
            "200": { description: "Status sections by subsystem.", content: { "application/json": { schema: { type: "object" } } } },
            "401": errorResponse("Missing, malformed, unknown or revoked API key."),
          },
        },
      },
      "/v0/account": {
        get: {
          operationId: "getAccount",
          summary: "Whose key this is, its plan and rate limit",
          responses: {
            "200": { description: "The account.", content: { "application/json": { schema: { type: "object" } } } },
            "401": errorResponse("Missing, malformed, unknown or revoked API key."),
          },
        },
      },
      "/v0/health": {
        get: {
          operationId: "getHealth",
          summary: "Liveness of both stores (no key)",
          security: [],
          responses: { "200": { description: "Both stores answer." }, "503": errorResponse("A store does not answer.") },
        },
      },
      "/v0/openapi.json": {
        get: {
          operationId: "getOpenApi",
          summary: "This document",
          security: [],
          responses: { "200": { description: "OpenAPI 3.1 document.", content: { "application/json": {} } } },
        },
      },
    },
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "`Authorization: Bearer brier_live_…`" },
      },
      schemas: {
        Outcome: schemaOf(outcomePublic),
        Market: marketSchema,
        Event: eventSchema,
        MarketList: {
          type: "object",
          required: ["data", "meta"],
          properties: { data: { type: "array", items: ref("Market") }, meta },
        },
        EventList: {
          type: "object",
          required: ["data", "meta"],
          properties: { data: { type: "array", items: ref("Event") }, meta },
        },
        MarketResponse: { type: "object", required: ["data"], properties: { data: ref("Market") } },
        EventResponse: { type: "object", required: ["data"], properties: { data: ref("Event") } },
        Error: {
          type: "object",
          required: ["error"],
          properties: {
            error: {
              type: "object",
              required: ["code", "message"],
              properties: {
                code: { type: "string", enum: [...errorCodes], description: "Stable machine-readable code." },
                message: { type: "string", description: "Human-readable explanation." },
                parameter: { type: "string", description: "With invalid_parameter: the offending parameter." },
              },
              additionalProperties: true,
            },
          },
        },
      },
    },
  };
}
