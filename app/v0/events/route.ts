import { searchEvents } from "@/lib/catalog/list";
import { listEventsQuery } from "@/lib/catalog/shapes";
import { parseQuery } from "@/lib/input";
import { json, withApiKey } from "@/lib/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/events — events with their nested markets, same filters and paging as /v0/markets
export const GET = withApiKey(async ({ db, searchParams }) =>
  json(await searchEvents(db, parseQuery(listEventsQuery, searchParams))),
);
