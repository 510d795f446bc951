import { json, withApiKey } from "@/lib/http";
import { getMarketMatches } from "@/lib/matching/service";
import { marketMatchesQuery } from "@/lib/matching/shapes";
import { parseQuery } from "@/lib/input";
import { venueBookPrices } from "@/lib/passthrough/venue-books";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/markets/{id}/matches — the same question on other venues, with relation, confidence and reasoning
export const GET = withApiKey<{ id: string }>(async ({ db, params, searchParams }) =>
  json(await getMarketMatches(db, params.id, parseQuery(marketMatchesQuery, searchParams), venueBookPrices)),
);
