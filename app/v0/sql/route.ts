import { withApiKey, json, readJsonBody } from "@/lib/http";
import { exportSqlQuery, MAX_SQL_BODY_BYTES, runSqlQuery } from "@/lib/sql/execute";
import { parseSqlFormat, parseSqlRequest } from "@/lib/sql/request";
import { getTickStores } from "@/lib/ticks";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// POST /v0/sql — read-only SQL over the recorded order-book ticks (Enterprise); ?format=csv|parquet downloads
export const POST = withApiKey(
  async ({ request, searchParams, principal }) => {
    const format = parseSqlFormat(searchParams);
    const { query } = parseSqlRequest(await readJsonBody(request, MAX_SQL_BODY_BYTES));
    const caller = principal.keyId ?? `account:${principal.accountId}`;
    const stores = await getTickStores();
    if (format === "json") {
      const result = await runSqlQuery(stores, caller, query);
      return json(result, { headers: { "x-rows-capped": String(result.meta.rows_capped) } });
    }
    const file = await exportSqlQuery(stores, caller, query, format);
    return new Response(file.body, {
      headers: {
        "content-type": file.contentType,
        "content-disposition": `attachment; filename="${file.filename}"`,
        "x-rows-capped": String(file.rowsCapped),
      },
    });
  },
  { plan: "enterprise", planErrorCode: "sql_access_denied" },
);
