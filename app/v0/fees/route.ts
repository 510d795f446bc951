import { json, withApiKey } from "@/lib/http";
import { parseQuery } from "@/lib/input";
import { feesQuery } from "@/lib/spreads/shapes";
import { listFeeSchedules } from "@/lib/spreads/service";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/fees — the venues' fee schedules spreads are priced with, each version with its source and effective date, and with ?market= that market's own fee read from its venue (every plan)
export const GET = withApiKey(async ({ db, searchParams }) => {
  const query = parseQuery(feesQuery, searchParams);
  return json(await listFeeSchedules(db, query.at ?? Date.now(), query.market));
});
