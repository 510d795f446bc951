import { z } from "zod";
import {
  errorResponse,
  rateLimitedResponse,
  ref,
  schemaOf,
  unauthorizedResponse,
  type JsonSchema,
  type OpenApiSectionBuilder,
} from "@/lib/openapi";
import { categories } from "./categories";
import {
  DEFAULT_LIMIT,
  eventPublic,
  listMeta,
  listQueryParameters,
  marketPublic,
  outcomePublic,
} from "./shapes";
import { exchangeKeys } from "./venues";

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

const listResponses = (schemaName: string) => ({
  "200": { description: "A page of results.", content: { "application/json": { schema: ref(schemaName) } } },
  "400": errorResponse("A parameter is invalid (`invalid_parameter`, with `parameter` naming it); no query ran."),
  "401": unauthorizedResponse(),
  "429": rateLimitedResponse(),
});

const lookupResponses = (schemaName: string, what: string) => ({
  "200": { description: `The ${what}.`, content: { "application/json": { schema: ref(schemaName) } } },
  "401": unauthorizedResponse(),
  "404": errorResponse(`No ${what} matches the reference.`),
  "429": rateLimitedResponse(),
});

/**
 * The catalog's part of GET /v0/openapi.json (assembled in app/v0/openapi.json/route.ts): the
 * market and event endpoints and their bodies, generated from the zod schemas that validate them.
 */
export const catalogOpenApi: OpenApiSectionBuilder = () => {
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

  const meta = schemaOf(listMeta);
  const idParameter = (what: string) => ({
    name: "id",
    in: "path",
    required: true,
    description: what,
    schema: { type: "string", maxLength: 512 },
  });

  return {
    description:
      "One catalog across prediction-market venues, polled through pmxt-core. Lists are ordered by volume24h " +
      "descending, ties by marketId/eventId descending, unless `sort` picks another order. Categories: " +
      categories.join(", ") +
      ".",
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
          parameters: [idParameter("Catalog UUID, slug, venue market id, contractAddress, an outcomeId, or the market's page URL on Polymarket or Kalshi (percent-encoded).")],
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
          parameters: [idParameter("Catalog UUID, slug, venue event id, or a page URL of the event (or one of its markets) on Polymarket or Kalshi (percent-encoded).")],
          responses: lookupResponses("EventResponse", "event"),
        },
      },
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
    },
  };
};
