import { z } from "zod";
import { InvalidBodyError, PayloadTooLargeError } from "@/lib/errors";
import { parseQuery } from "@/lib/input";
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

const sqlFormat = z.enum(["json", "csv", "parquet"], { error: "format must be json, csv or parquet." }).default("json");

/** The query string of POST /v0/sql (the statement is in the body). */
export const sqlPostQuery = z.object({ format: sqlFormat });

/** The query string of GET /v0/sql: the statement in the URL (as pmxt's hosted API takes it). */
export const sqlGetQuery = z.object({
  format: sqlFormat,
  query: z
    .string({ error: "query is required: pass one non-empty `query` parameter (or POST {\"query\": \"<SQL>\"})." })
    .refine((value) => value.trim() !== "", "query must not be empty."),
});

/** The format of POST /v0/sql; a parameter sent twice is refused (lib/input.ts). */
export function parseSqlPostQuery(searchParams: URLSearchParams): { format: SqlFormat } {
  return parseQuery(sqlPostQuery, searchParams);
}

/** The statement and format of GET /v0/sql, the statement held to the same size cap as the POST body. */
export function parseSqlGetQuery(searchParams: URLSearchParams): { format: SqlFormat; query: string } {
  const parsed = parseQuery(sqlGetQuery, searchParams);
  if (Buffer.byteLength(parsed.query) > MAX_SQL_QUERY_PARAM_BYTES) throw new PayloadTooLargeError(MAX_SQL_QUERY_PARAM_BYTES);
  return parsed;
}
