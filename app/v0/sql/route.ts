import { withApiKey, json, readJsonBody, type KeyedContext, type Reply } from "@/lib/http";
import { exportSqlQuery, MAX_SQL_BODY_BYTES, runSqlQuery, type SqlFormat } from "@/lib/sql/execute";
import { parseSqlGetQuery, parseSqlPostQuery, parseSqlRequest } from "@/lib/sql/request";
import { getTickStores } from "@/lib/ticks";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const options = { plan: "enterprise", planErrorCode: "sql_access_denied" } as const;

/** Runs the query for the caller; the request's signal cancels it when the client goes away. */
async function answer({ request, principal }: KeyedContext<Record<string, never>>, { query, format }: { query: string; format: SqlFormat }): Promise<Reply> {
  const caller = principal.keyId ?? `account:${principal.accountId}`;
  const stores = await getTickStores();
  if (format === "json") {
    const result = await runSqlQuery(stores, caller, query, request.signal);
    return json(result, { headers: { "x-rows-capped": String(result.meta.rows_capped), "x-bytes-capped": String(result.meta.bytes_capped) } });
  }
  const file = await exportSqlQuery(stores, caller, query, format, request.signal);
  return new Response(file.body, {
    headers: {
      "content-type": file.contentType,
      "content-disposition": `attachment; filename="${file.filename}"`,
      "x-rows-capped": String(file.rowsCapped),
      "x-bytes-capped": String(file.bytesCapped),
    },
  });
}

// POST /v0/sql — read-only SQL over the recorded order-book ticks (Enterprise); ?format=csv|parquet downloads
export const POST = withApiKey(
  async (context) => {
    const { format } = parseSqlPostQuery(context.searchParams);
    return answer(context, { format, query: parseSqlRequest(await readJsonBody(context.request, MAX_SQL_BODY_BYTES)).query });
  },
  options,
);

// GET /v0/sql?query=… — the same, with the statement in the URL (as pmxt's hosted API takes it)
export const GET = withApiKey(async (context) => answer(context, parseSqlGetQuery(context.searchParams)), options);
