import { json, withApiKey } from "@/lib/http";
import { browseEventMatches } from "@/lib/matching/service";
import { eventsMatchesQuery } from "@/lib/matching/shapes";
import { parseQuery } from "@/lib/input";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/events/matches — event pairs across venues with the market matches between them
export const GET = withApiKey(async ({ db, searchParams }) =>
  json(await browseEventMatches(db, parseQuery(eventsMatchesQuery, searchParams))),
);
