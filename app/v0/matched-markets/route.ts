import { json, withApiKey } from "@/lib/http";
import { browseMatchedMarkets } from "@/lib/matching/service";
import { matchedMarketsQuery } from "@/lib/matching/shapes";
import { parseQuery } from "@/lib/input";
import { venueBookPrices } from "@/lib/passthrough/venue-books";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/matched-markets — matched pairs across venues, largest Yes price difference first
export const GET = withApiKey(async ({ db, searchParams }) =>
  json(await browseMatchedMarkets(db, parseQuery(matchedMarketsQuery, searchParams), venueBookPrices)),
);
