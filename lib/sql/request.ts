import { z } from "zod";
import { InvalidBodyError, InvalidParameterError, PayloadTooLargeError } from "@/lib/errors";
import type { SqlFormat } from "./execute";

/** Longest statement GET /v0/sql takes in its URL (the POST body allows 64 KiB). */
const MAX_SQL_QUERY_PARAM_BYTES = 8 * 1024;

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

/** The `query` parameter of GET /v0/sql, held to the same size cap as the POST body. */
export function parseSqlQueryParam(searchParams: URLSearchParams): string {
  const queries = searchParams.getAll("query");
  if (queries.length !== 1 || queries[0] === undefined || queries[0].trim() === "") {
    throw new InvalidParameterError("query", "Pass exactly one non-empty `query` parameter (or POST {\"query\": \"<SQL>\"}).");
  }
  if (Buffer.byteLength(queries[0]) > MAX_SQL_QUERY_PARAM_BYTES) throw new PayloadTooLargeError(MAX_SQL_QUERY_PARAM_BYTES);
  return queries[0];
}
