import { json, withApiKey } from "@/lib/http";
import { browseMatchedMarkets } from "@/lib/matching/service";
import { matchedMarketsQuery, parseMatchQuery } from "@/lib/matching/shapes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/matched-prices — pmxt's older name of /v0/matched-markets (same pairs, same parameters)
export const GET = withApiKey(async ({ db, searchParams }) =>
  json(await browseMatchedMarkets(db, parseMatchQuery(matchedMarketsQuery, searchParams))),
);
