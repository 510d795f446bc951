import "server-only";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";

/**
 * The pass-through surface, read from the installed pmxt-core at start (never hand-copied):
 * exchange keys from openapi.yaml's `x-sdk-constructors`, methods from `method-verbs.json`
 * (verb and positional args) and openapi.yaml (request schemas). Upgrading pmxt-core refreshes it.
 */

/** A JSON Schema node as openapi.yaml writes them (the subset the validator understands). */
export interface JsonSchema {
  type?: string;
  format?: string;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
  nullable?: boolean;
  $ref?: string;
}

export type ArgKind = "string" | "number" | "boolean" | "object" | "unknown";

export interface MethodArg {
  name: string;
  kind: ArgKind;
  optional: boolean;
  /** The schema one positional arg must satisfy. */
  schema: JsonSchema;
}

export interface MethodSpec {
  name: string;
  /** `get` methods are reachable by GET too (query mapped to args); every method takes POST. */
  verb: "get" | "post";
  args: MethodArg[];
  minArgs: number;
  maxArgs: number;
}

export interface VenueRegistry {
  exchanges: readonly string[];
  methods: ReadonlyMap<string, MethodSpec>;
  /** components.schemas, for `$ref` resolution. */
  schemas: Readonly<Record<string, JsonSchema>>;
}

const methodVerbsFile = z.record(
  z.string(),
  z.object({
    verb: z.enum(["get", "post"]),
    args: z.array(
      z.object({
        name: z.string(),
        kind: z.enum(["string", "number", "boolean", "object", "unknown"]).catch("unknown"),
        optional: z.boolean().default(false),
      }),
    ),
  }),
);

const queryParameter = z.object({
  in: z.string(),
  name: z.string(),
  required: z.boolean().optional(),
  schema: z.custom<JsonSchema>().optional(),
});

const operation = z.object({
  parameters: z.array(z.union([queryParameter, z.object({ $ref: z.string() })])).optional(),
  requestBody: z
    .object({
      content: z.object({
        "application/json": z.object({
          schema: z.object({ properties: z.object({ args: z.custom<JsonSchema>() }).partial() }).partial(),
        }),
      }),
    })
    .optional(),
});

const openApiFile = z.object({
  paths: z.record(z.string(), z.object({ get: operation.optional(), post: operation.optional() })),
  components: z.object({ schemas: z.record(z.string(), z.custom<JsonSchema>()) }),
  "x-sdk-constructors": z.record(z.string(), z.unknown()),
});

/** Where the installed pmxt-core's server files are. Next runs from the project root. */
function pmxtServerDir(): string {
  const require = createRequire(path.join(process.cwd(), "package.json"));
  return path.join(path.dirname(require.resolve("pmxt-core/package.json")), "dist", "server");
}

function kindSchema(kind: ArgKind): JsonSchema {
  return kind === "unknown" ? {} : { type: kind };
}

/** Builds the registry from the two files' contents (exported for tests). */
export function buildRegistry(openApiYaml: string, methodVerbsJson: string): VenueRegistry {
  const spec = openApiFile.parse(parseYaml(openApiYaml));
  const verbs = methodVerbsFile.parse(JSON.parse(methodVerbsJson));
  const methods = new Map<string, MethodSpec>();

  for (const [name, entry] of Object.entries(verbs)) {
    const pathItem = spec.paths[`/api/{exchange}/${name}`];
    if (pathItem === undefined) continue; // method-verbs lists it, the interface description does not: not documented
    const bodyArgs = pathItem.post?.requestBody?.content["application/json"].schema.properties?.args;
    const queryParams = (pathItem.get?.parameters ?? []).filter(
      (p): p is z.infer<typeof queryParameter> => "in" in p && p.in === "query",
    );
    const primitiveNames = new Set(entry.args.filter((a) => a.kind !== "object").map((a) => a.name));

    const args: MethodArg[] = entry.args.map((arg, index) => {
      let schema: JsonSchema = kindSchema(arg.kind);
      if (bodyArgs?.items !== undefined) {
        const union = bodyArgs.items.oneOf;
        // A positional `oneOf` (one entry per arg) gives each position its own schema.
        schema = union !== undefined && union.length === entry.args.length && entry.args.length > 1
          ? (union[index] ?? {})
          : bodyArgs.items;
      } else if (arg.kind === "object") {
        const properties: Record<string, JsonSchema> = {};
        for (const param of queryParams) {
          if (!primitiveNames.has(param.name)) properties[param.name] = param.schema ?? {};
        }
        schema = { type: "object", properties };
      } else {
        const param = queryParams.find((p) => p.name === arg.name);
        if (param?.schema !== undefined) schema = param.schema;
      }
      return { name: arg.name, kind: arg.kind, optional: arg.optional, schema };
    });

    let minArgs = 0;
    for (const [index, arg] of args.entries()) if (!arg.optional) minArgs = index + 1;
    methods.set(name, {
      name,
      verb: entry.verb,
      args,
      minArgs: bodyArgs?.minItems ?? minArgs,
      maxArgs: Math.min(bodyArgs?.maxItems ?? args.length, args.length),
    });
  }

  return { exchanges: Object.keys(spec["x-sdk-constructors"]), methods, schemas: spec.components.schemas };
}

let registry: VenueRegistry | undefined;

/** The registry of the installed pmxt-core, read once per process. */
export function getVenueRegistry(): VenueRegistry {
  if (registry === undefined) {
    const dir = pmxtServerDir();
    registry = buildRegistry(
      readFileSync(path.join(dir, "openapi.yaml"), "utf8"),
      readFileSync(path.join(dir, "method-verbs.json"), "utf8"),
    );
  }
  return registry;
}

/** Own-property lookup, so `constructor` or `__proto__` never resolve to something. */
export function findMethod(name: string): MethodSpec | undefined {
  return getVenueRegistry().methods.get(name);
}

export function isExchangeKey(key: string): boolean {
  return getVenueRegistry().exchanges.includes(key);
}
