import "server-only";
import { getVenueRegistry, type JsonSchema, type MethodSpec } from "@/lib/venues/registry";

/** What the pass-through console needs of the route table (plain data for the client island). */
export interface ConsoleMethod {
  name: string;
  verb: "get" | "post";
  args: { name: string; kind: string; optional: boolean; fields: string[] }[];
  /** Positional args prefilled from the method's request schema. */
  example: unknown[];
}

export interface ConsoleTable {
  exchanges: string[];
  methods: ConsoleMethod[];
}

type Schemas = Readonly<Record<string, JsonSchema>>;

function resolve(schema: JsonSchema, schemas: Schemas, depth = 0): JsonSchema {
  if (schema.$ref === undefined || depth > 8) return schema;
  const name = schema.$ref.split("/").pop() ?? "";
  const target = Object.hasOwn(schemas, name) ? schemas[name] : undefined;
  return target === undefined ? {} : resolve(target, schemas, depth + 1);
}

/** A value that satisfies a schema's shape with neutral content: required fields only, and `limit` kept small. */
export function exampleValue(raw: JsonSchema, schemas: Schemas, depth = 0): unknown {
  const schema = resolve(raw, schemas);
  const first = schema.oneOf?.[0] ?? schema.anyOf?.[0];
  if (first !== undefined && depth < 6) return exampleValue(first, schemas, depth + 1);
  if (schema.enum !== undefined && schema.enum.length > 0) return schema.enum[0];
  switch (schema.type) {
    case "string":
      return "";
    case "number":
    case "integer":
      return 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "object": {
      const out: Record<string, unknown> = {};
      const properties = schema.properties ?? {};
      for (const name of schema.required ?? []) {
        const property = properties[name];
        if (property !== undefined && depth < 6) out[name] = exampleValue(property, schemas, depth + 1);
      }
      if (Object.hasOwn(properties, "limit")) out.limit = 10;
      return out;
    }
    default:
      return {};
  }
}

function fieldsOf(raw: JsonSchema, schemas: Schemas): string[] {
  const schema = resolve(raw, schemas);
  return Object.keys(schema.properties ?? {});
}

/** Required args, plus a trailing options object (so `fetchMarkets` starts as `[{ "limit": 10 }]`). */
function exampleArgs(method: MethodSpec, schemas: Schemas): unknown[] {
  const args: unknown[] = [];
  for (const [index, arg] of method.args.entries()) {
    if (index >= method.minArgs && !(arg.kind === "object" && index === method.minArgs)) break;
    args.push(exampleValue(arg.schema, schemas));
  }
  return args;
}

let table: ConsoleTable | undefined;

/**
 * Methods pmxt-core routes but does not offer as part of its interface: its own test hook
 * (`testDummyMethod`, "Test method for auto-generation verification."). The console does not offer
 * them; the pass-through still answers them like the sidecar does.
 */
export function isInterfaceMethod(name: string): boolean {
  return !/^test[A-Z]/.test(name);
}

/** The console's exchange and method pickers, read once from the pass-through's registry. */
export function getConsoleTable(): ConsoleTable {
  if (table !== undefined) return table;
  const registry = getVenueRegistry();
  const methods = [...registry.methods.values()]
    .filter((method) => isInterfaceMethod(method.name))
    .map((method) => ({
      name: method.name,
      verb: method.verb,
      args: method.args.map((arg) => ({ name: arg.name, kind: arg.kind, optional: arg.optional, fields: fieldsOf(arg.schema, registry.schemas) })),
      example: exampleArgs(method, registry.schemas),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  table = { exchanges: [...registry.exchanges], methods };
  return table;
}
