import type { z } from "zod";
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
