import { catalogGeneration } from "@/lib/catalog/generation";
import { marketListingJson } from "@/lib/catalog/list";
import { listMarketsQuery } from "@/lib/catalog/shapes";
import { parseQuery } from "@/lib/input";
import { jsonText, withApiKey } from "@/lib/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/markets — one flat market list across venues, by 24h volume, offset or cursor paged;
// admission's statement also reads the catalog generation, which answers an unchanged page with no statement of its own
export const GET = withApiKey(
  async ({ db, searchParams, alongside }) => jsonText(await marketListingJson(db, parseQuery(listMarketsQuery, searchParams), alongside)),
  { alongside: catalogGeneration },
);
