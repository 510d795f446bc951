import { z } from "zod";
import { InvalidBodyError, InvalidParameterError } from "@/lib/errors";
import type { SqlFormat } from "./execute";

/** Body of POST /v0/sql. */
export const sqlRequestBody = z.object({ query: z.string().min(1, "query must not be empty") }).strict();

export function parseSqlRequest(body: unknown): { query: string } {
  const parsed = sqlRequestBody.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidBodyError(
      issue?.code === "unrecognized_keys" ? "Only the field `query` is accepted." : `Expected {"query": "<SQL>"}: ${issue?.message ?? "invalid body"}.`,
      issue?.path.join(".") || "query",
    );
  }
  return parsed.data;
}

export function parseSqlFormat(searchParams: URLSearchParams): SqlFormat {
  const format = searchParams.get("format") ?? "json";
  if (format !== "json" && format !== "csv" && format !== "parquet") {
    throw new InvalidParameterError("format", "format must be json, csv or parquet.");
  }
  return format;
}
