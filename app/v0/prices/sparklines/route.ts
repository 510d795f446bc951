import { sparklines } from "@/lib/history/prices";
import { sparklinesQuery } from "@/lib/history/shapes";
import { json, withApiKey } from "@/lib/http";
import { parseQuery } from "@/lib/input";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/prices/sparklines?marketIds= — 7 days of hourly closes of each market's first outcome, for a page of catalog rows (every plan)
export const GET = withApiKey(async ({ db, ticks, searchParams }) => json({ data: await sparklines(db, ticks, parseQuery(sparklinesQuery, searchParams)) }));
