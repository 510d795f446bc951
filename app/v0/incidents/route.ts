import { listIncidents } from "@/lib/history/journal";
import { json, withApiKey } from "@/lib/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/incidents?since=&kind= — what happened to the tick recorder, newest first (every plan)
export const GET = withApiKey(async ({ db, searchParams }) => json(await listIncidents(db, searchParams)));
