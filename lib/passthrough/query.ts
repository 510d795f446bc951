import { InvalidBodyError } from "@/lib/errors";
import { parseUntrustedJson, TOO_DEEP_MESSAGE } from "@/lib/json";
import type { JsonSchema, MethodSpec } from "@/lib/venues/registry";

/**
 * pmxtjs 2.41 sends `id` where the sidecar expects `outcomeId` (fetchOHLCV, fetchTrades); the
 * sidecar answers those SDK calls with an error, Brier accepts both names.
 */
const argAliases: Record<string, string> = { outcomeId: "id" };

function coerce(raw: string, schema: JsonSchema | undefined): unknown {
  const type = schema?.type;
  if (type === "string") return raw;
  if (type === "number" || type === "integer") return /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
  if (type === "boolean") return raw === "true" ? true : raw === "false" ? false : raw;
  if (type === "object" || schema?.$ref !== undefined || type === "array") {
    if (raw.startsWith("{") || raw.startsWith("[")) {
      const parsed = parseUntrustedJson(raw);
      if (parsed.ok) return parsed.value;
      if (parsed.reason === "depth") throw new InvalidBodyError(`A query value: ${TOO_DEEP_MESSAGE}`);
    }
    return raw;
  }
  // Unknown property: the sidecar's permissive reading.
  if (raw === "true") return true;
  if (raw === "false") return false;
  if (/^-?\d+(\.\d+)?$/.test(raw) && raw.length < 16) return Number(raw);
  return raw;
}

/**
 * List filters pmxt-core's schema (2.41) does not declare; pmxt's newer sidecar reads one value
 * (`?tags=crypto`) as a one-element list, as it reads repeated keys, instead of failing in the venue.
 */
const listParams: Record<string, JsonSchema> = { tags: { type: "array", items: { type: "string" } } };

function readValue(query: URLSearchParams, name: string, declared: JsonSchema | undefined): unknown {
  const values = query.getAll(name);
  const schema = declared ?? listParams[name];
  if (schema?.type === "array") {
    const single = values[0];
    if (values.length === 1 && single?.startsWith("[") === true) return coerce(single, schema);
    return values.map((value) => coerce(value, schema.items));
  }
  return values.length === 0 ? undefined : coerce(values[values.length - 1] ?? "", schema);
}

/**
 * Maps a GET query string to positional args as pmxt-core's sidecar does: primitive args by name,
 * and the (single) object arg swallows every remaining key. Values are typed by the request schema.
 */
export function queryToArgs(spec: MethodSpec, query: URLSearchParams): unknown[] {
  const consumed = new Set<string>();
  const primitive = spec.args.filter((arg) => arg.kind !== "object");
  for (const arg of primitive) consumed.add(arg.name);
  const args: unknown[] = spec.args.map((arg) => {
    if (arg.kind === "object") return undefined;
    const alias = argAliases[arg.name];
    const name = query.has(arg.name) || alias === undefined ? arg.name : alias;
    consumed.add(name);
    return readValue(query, name, arg.schema);
  });
  spec.args.forEach((arg, index) => {
    if (arg.kind !== "object") return;
    const object: Record<string, unknown> = {};
    for (const key of new Set(query.keys())) {
      if (consumed.has(key)) continue;
      object[key] = readValue(query, key, arg.schema.properties?.[key]);
    }
    args[index] = Object.keys(object).length > 0 ? object : undefined;
  });
  while (args.length > 0 && args[args.length - 1] === undefined) args.pop();
  return args.map((value) => (value === undefined ? null : value));
}
