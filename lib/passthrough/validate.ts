import { InvalidBodyError, InvalidParameterError } from "@/lib/errors";
import { getVenueRegistry, type JsonSchema, type MethodSpec } from "@/lib/venues/registry";
import type { PassthroughInput } from "./call";
import { queryToArgs } from "./query";

/** Bounds on an args payload before any schema is looked at: hostile shapes fail fast and cheaply. */
export const argLimits = { maxDepth: 12, maxArrayLength: 5_000, maxKeys: 200, maxStringLength: 100_000 };

/** Keys that could reach an object's prototype chain inside pmxt-core's spreads and merges. */
const forbiddenKeys = new Set(["__proto__", "constructor", "prototype"]);

function fail(path: string, message: string): never {
  throw new InvalidParameterError(path, `${path}: ${message}`);
}

/** Walks the whole payload once: depth, sizes, and prototype keys. */
export function assertSafeShape(value: unknown, path = "args", depth = 0): void {
  if (depth > argLimits.maxDepth) fail(path, `nested deeper than ${argLimits.maxDepth} levels`);
  if (typeof value === "string" && value.length > argLimits.maxStringLength) {
    fail(path, `string longer than ${argLimits.maxStringLength} characters`);
  }
  if (typeof value === "number" && !Number.isFinite(value)) fail(path, "must be a finite number");
  if (Array.isArray(value)) {
    if (value.length > argLimits.maxArrayLength) fail(path, `array longer than ${argLimits.maxArrayLength} items`);
    value.forEach((item, index) => assertSafeShape(item, `${path}[${index}]`, depth + 1));
    return;
  }
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value);
    if (keys.length > argLimits.maxKeys) fail(path, `object with more than ${argLimits.maxKeys} keys`);
    for (const key of keys) {
      if (forbiddenKeys.has(key)) fail(`${path}.${key}`, "this key is not allowed");
      assertSafeShape((value as Record<string, unknown>)[key], `${path}.${key}`, depth + 1);
    }
  }
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function resolveRef(schema: JsonSchema, schemas: Readonly<Record<string, JsonSchema>>): JsonSchema {
  let current = schema;
  for (let hops = 0; current.$ref !== undefined && hops < 8; hops++) {
    const name = current.$ref.replace("#/components/schemas/", "");
    current = Object.hasOwn(schemas, name) ? (schemas[name] ?? {}) : {};
  }
  return current;
}

/**
 * Checks `value` against an openapi.yaml schema and returns it with `format: date-time` strings
 * turned into Dates (pmxt-core's OHLCV/trade params call `.getTime()` on them). The first
 * mismatch throws with its path, e.g. `args[1].limit: expected number, got string`.
 */
export function conform(value: unknown, rawSchema: JsonSchema, schemas: Readonly<Record<string, JsonSchema>>, path: string): unknown {
  const schema = resolveRef(rawSchema, schemas);
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives !== undefined && alternatives.length > 0) {
    let firstError: unknown;
    for (const alternative of alternatives) {
      try {
        return conform(value, alternative, schemas, path);
      } catch (error) {
        firstError ??= error;
      }
    }
    throw firstError;
  }
  let result = value;
  for (const part of schema.allOf ?? []) result = conform(result, part, schemas, path);

  if (schema.enum !== undefined && !schema.enum.includes(value)) {
    fail(path, `must be one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`);
  }
  const actual = typeOf(value);
  switch (schema.type) {
    case undefined:
      return result;
    case "string":
      if (actual !== "string") fail(path, `expected string, got ${actual}`);
      if (schema.format === "date-time") {
        const date = new Date(value as string);
        if (Number.isNaN(date.getTime())) fail(path, "expected an ISO 8601 date-time");
        return date;
      }
      return value;
    case "number":
    case "integer":
      if (actual !== "number") fail(path, `expected number, got ${actual}`);
      if (schema.type === "integer" && !Number.isInteger(value)) fail(path, "expected an integer");
      return value;
    case "boolean":
      if (actual !== "boolean") fail(path, `expected boolean, got ${actual}`);
      return value;
    case "array": {
      if (actual !== "array") fail(path, `expected array, got ${actual}`);
      const items = value as unknown[];
      if (schema.minItems !== undefined && items.length < schema.minItems) fail(path, `needs at least ${schema.minItems} items`);
      if (schema.maxItems !== undefined && items.length > schema.maxItems) fail(path, `takes at most ${schema.maxItems} items`);
      const itemSchema = schema.items;
      return itemSchema === undefined ? items : items.map((item, i) => conform(item, itemSchema, schemas, `${path}[${i}]`));
    }
    case "object": {
      if (actual !== "object") fail(path, `expected object, got ${actual}`);
      const input = value as Record<string, unknown>;
      const output: Record<string, unknown> = {};
      for (const name of schema.required ?? []) {
        if (input[name] === undefined || input[name] === null) fail(`${path}.${name}`, "is required");
      }
      for (const [key, item] of Object.entries(input)) {
        const propertySchema = schema.properties?.[key] ?? (typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined);
        // A null optional property means "not given" (JSON has no undefined).
        if (item === null && !(schema.required ?? []).includes(key)) continue;
        output[key] = propertySchema === undefined ? item : conform(item, propertySchema, schemas, `${path}.${key}`);
      }
      return output;
    }
    default:
      return result;
  }
}

/** Validates positional args against the method's request schema; returns the args to call with. */
export function validateArgs(spec: MethodSpec, args: unknown, schemas: Readonly<Record<string, JsonSchema>>): unknown[] {
  if (!Array.isArray(args)) fail("args", `expected array, got ${typeOf(args)}`);
  assertSafeShape(args);
  // Trailing nulls are how JSON clients leave optional args out.
  const list = [...args];
  while (list.length > 0 && list[list.length - 1] === null) list.pop();
  if (list.length > spec.maxArgs) fail("args", `${spec.name} takes at most ${spec.maxArgs} argument(s), got ${list.length}`);
  if (list.length < spec.minArgs) fail(`args[${list.length}]`, `is required (${spec.args[list.length]?.name ?? "argument"})`);
  return list.map((value, index) => {
    const arg = spec.args[index];
    if (arg === undefined) return value;
    if (value === null && arg.optional) return undefined;
    return conform(value, arg.schema, schemas, `args[${index}]`);
  });
}

function readBody(body: unknown): { args: unknown; credentials: Record<string, unknown> | undefined } {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new InvalidBodyError("The body must be a JSON object: { \"args\": [...], \"credentials\"?: {...} }.");
  }
  const { args, credentials } = body as { args?: unknown; credentials?: unknown };
  if (credentials === undefined || credentials === null) return { args: args ?? [], credentials: undefined };
  const schemas = getVenueRegistry().schemas;
  const checked = conform(credentials, { $ref: "#/components/schemas/ExchangeCredentials" }, schemas, "credentials");
  return { args: args ?? [], credentials: checked as Record<string, unknown> };
}

/** Step 2 of a call: its args (query string or body) and credentials, checked against pmxt's schemas. */
export function readArgs(spec: MethodSpec, input: PassthroughInput): { args: unknown[]; credentials: Record<string, unknown> | undefined } {
  const { args: rawArgs, credentials } = input.kind === "query" ? { args: queryToArgs(spec, input.query), credentials: undefined } : readBody(input.body);
  return { args: validateArgs(spec, rawArgs, getVenueRegistry().schemas), credentials };
}
