import { json, withApiKey } from "@/lib/http";
import { parseQuery } from "@/lib/input";
import { feesQuery } from "@/lib/spreads/shapes";
import { listFeeSchedules } from "@/lib/spreads/service";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/fees — the venues' fee schedules spreads are priced with, each version with its source and effective date (every plan)
export const GET = withApiKey(async ({ searchParams }) => json(listFeeSchedules(parseQuery(feesQuery, searchParams).at ?? Date.now())));
