import { z } from "zod";
import { errorCodes } from "@/lib/errors";

/**
 * The /v0 OpenAPI 3.1 document, assembled from sections: each domain describes its own paths and
 * schemas in its own `openapi.ts` (lib/catalog/openapi.ts, lib/sql/openapi.ts, ...), and
 * app/v0/openapi.json/route.ts lists the sections, one line per domain. This module holds what
 * every section shares: the document's frame, the bearer scheme, the `Error` body and its
 * responses, and the zod -> JSON Schema conversion.
 */

export type JsonSchema = Record<string, unknown>;

/** One domain's part of the document. */
export interface OpenApiSection {
  /** Paths in the order they are listed in the document. */
  paths: Record<string, JsonSchema>;
  /** Named schemas under `components.schemas`, referenced with `ref(name)`. */
  schemas?: Record<string, JsonSchema>;
  /** A paragraph of the document's `info.description`. */
  description?: string;
}

/** A section is built on first request (zod conversion and the venue list are not free). */
export type OpenApiSectionBuilder = () => OpenApiSection;

/** JSON Schema 2020-12 (what OpenAPI 3.1 uses) of a zod schema, without the `$schema` header: what it outputs, or with `io: "input"` what it accepts. */
export function schemaOf(schema: z.ZodType, io: "input" | "output" = "output"): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

/** The query parameters of a zod object, as OpenAPI parameters: what each accepts, with the schema's descriptions. */
export function queryParameters(schema: z.ZodObject, required: readonly string[] = []): JsonSchema[] {
  return Object.entries(schema.shape).map(([name, field]) => {
    const { description, ...json } = schemaOf(field as z.ZodType, "input");
    return { name, in: "query", required: required.includes(name), description, schema: Object.keys(json).length === 0 ? { type: "string" } : json };
  });
}

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A response carrying the /v0 error body. */
export const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: ref("Error") } },
});

export const unauthorizedResponse = () => errorResponse("Missing, malformed, unknown or revoked API key.");
export const rateLimitedResponse = () => errorResponse("Rate limit exceeded; see Retry-After.");

/** The document's own path (GET /v0/openapi.json). */
export const openApiSelf: OpenApiSectionBuilder = () => ({
  paths: {
    "/v0/openapi.json": {
      get: {
        operationId: "getOpenApi",
        summary: "This document",
        security: [],
        responses: { "200": { description: "OpenAPI 3.1 document.", content: { "application/json": {} } } },
      },
    },
  },
});

const errorSchema: JsonSchema = {
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
};

/** Merges the sections in order; a path or schema name claimed twice is a programming error. */
export function buildOpenApiDocument(builders: readonly OpenApiSectionBuilder[]): JsonSchema {
  const paths: Record<string, JsonSchema> = {};
  const schemas: Record<string, JsonSchema> = {};
  const description: string[] = [];
  for (const build of builders) {
    const section = build();
    for (const [path, item] of Object.entries(section.paths)) {
      if (Object.hasOwn(paths, path)) throw new Error(`OpenAPI: path ${path} is described twice`);
      paths[path] = item;
    }
    for (const [name, schema] of Object.entries(section.schemas ?? {})) {
      if (Object.hasOwn(schemas, name) || name === "Error") throw new Error(`OpenAPI: schema ${name} is described twice`);
      schemas[name] = schema;
    }
    if (section.description !== undefined) description.push(section.description);
  }
  return {
    openapi: "3.1.0",
    info: { title: "Brier catalog API", version: "0", description: description.join("\n\n") },
    servers: [{ url: "/" }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "`Authorization: Bearer brier_live_…`" },
      },
      schemas: { ...schemas, Error: errorSchema },
    },
  };
}

const built = new WeakMap<readonly OpenApiSectionBuilder[], JsonSchema>();

/** The document, built once per process for a given list: the schemas it derives from do not change at run time. */
export function openApiDocument(builders: readonly OpenApiSectionBuilder[]): JsonSchema {
  let document = built.get(builders);
  if (document === undefined) {
    document = buildOpenApiDocument(builders);
    built.set(builders, document);
  }
  return document;
}
