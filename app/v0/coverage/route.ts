import { coverage } from "@/lib/history/coverage";
import { coverageQuery } from "@/lib/history/shapes";
import { json, withApiKey } from "@/lib/http";
import { parseQuery } from "@/lib/input";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/coverage?market=|outcomeId= — per asset: first/last event, rows by type, one condition per UTC hour, gaps (every plan)
export const GET = withApiKey(async ({ db, ticks, searchParams }) => json(await coverage(db, ticks, parseQuery(coverageQuery, searchParams))));
