import { z } from "zod";
import { InvalidParameterError } from "@/lib/errors";

/**
 * Input validation's one mapping of a zod failure to the error a client sees: 400
 * invalid_parameter naming the parameter, first issue first. Only input goes through here: a zod
 * failure on the way out (a row parsed into its public shape) is a bug and stays a 500, which is
 * why the HTTP error mapper does not turn every ZodError into a 400.
 */
export function invalidParameter(error: z.ZodError, parameter?: string): InvalidParameterError {
  const issue = error.issues[0];
  if (parameter === undefined && issue?.code === "unrecognized_keys") {
    const name = issue.keys[0] ?? "query";
    return new InvalidParameterError(name, `${name} is not a parameter of this endpoint`);
  }
  const name = parameter ?? String(issue?.path[0] ?? "query");
  const message = issue?.message ?? "invalid value";
  return new InvalidParameterError(name, message.startsWith(name) ? message : `${name}: ${message}`);
}

/** One value (a path parameter, a form field) checked with `schema`; errors name `parameter`. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown, parameter: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidParameter(parsed.error, parameter);
  return parsed.data;
}

/** A query string checked with an object schema; a parameter sent twice is refused rather than guessed. */
export function parseQuery<T extends z.ZodType>(schema: T, searchParams: URLSearchParams): z.output<T> {
  const input: Record<string, string> = {};
  for (const [name, value] of searchParams) {
    if (Object.hasOwn(input, name)) throw new InvalidParameterError(name, `${name} was sent more than once`);
    input[name] = value;
  }
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw invalidParameter(parsed.error);
  return parsed.data;
}

/**
 * The one cursor codec of the API: a keyset position is a short JSON array, sent as base64url so a
 * client treats it as opaque. What it holds is checked on the way back in by the endpoint's schema.
 */
export function encodeCursor(position: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(position)).toString("base64url");
}

/** The JSON value a cursor carries, or undefined when the text is not one `encodeCursor` wrote. */
export function decodeCursor(raw: string, maxLength = 512): unknown {
  if (raw.length > maxLength || !/^[A-Za-z0-9_-]+$/.test(raw)) return undefined;
  try {
    return JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A `cursor` query parameter decoded into the position `schema` describes; anything else is a
 * 400 naming `cursor`. Used inside an endpoint's query schema, so the domain receives a typed
 * position, never text.
 */
export function cursorParam<T extends z.ZodType>(schema: T) {
  return z.string().transform((raw, ctx): z.output<T> => {
    const parsed = schema.safeParse(decodeCursor(raw));
    if (!parsed.success) {
      ctx.addIssue({ code: "custom", message: "cursor is not one this endpoint issued" });
      return z.NEVER;
    }
    return parsed.data;
  });
}
