import { json, withApiKey } from "@/lib/http";
import { browseMatchedMarkets } from "@/lib/matching/service";
import { matchedMarketsQuery } from "@/lib/matching/shapes";
import { parseQuery } from "@/lib/input";
import { venueBookPrices } from "@/lib/passthrough/venue-books";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/matched-prices — pmxt's older name of /v0/matched-markets (same pairs, same parameters)
export const GET = withApiKey(async ({ db, searchParams }) =>
  json(await browseMatchedMarkets(db, parseQuery(matchedMarketsQuery, searchParams), venueBookPrices)),
);
