import { marketListingJson } from "@/lib/catalog/list";
import { listMarketsQuery } from "@/lib/catalog/shapes";
import { parseQuery } from "@/lib/input";
import { jsonText, withApiKey } from "@/lib/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/markets — one flat market list across venues, by 24h volume, offset or cursor paged
export const GET = withApiKey(async ({ db, searchParams }) =>
  jsonText(await marketListingJson(db, parseQuery(listMarketsQuery, searchParams))),
);
