import { listIncidents } from "@/lib/history/journal";
import { incidentsQuery } from "@/lib/history/shapes";
import { json, withApiKey } from "@/lib/http";
import { parseQuery } from "@/lib/input";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/incidents?since=&kind= — what happened to the tick recorder, newest first (every plan)
export const GET = withApiKey(async ({ db, searchParams }) => json(await listIncidents(db, parseQuery(incidentsQuery, searchParams))));
