import { json, withApiKey } from "@/lib/http";
import { getEventMatches } from "@/lib/matching/service";
import { eventMatchesQuery } from "@/lib/matching/shapes";
import { parseQuery } from "@/lib/input";
import { venueBookPrices } from "@/lib/passthrough/venue-books";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/events/{id}/matches — events on other venues matching this event's markets, grouped by event
export const GET = withApiKey<{ id: string }>(async ({ db, params, searchParams }) =>
  json(await getEventMatches(db, params.id, parseQuery(eventMatchesQuery, searchParams), venueBookPrices)),
);
