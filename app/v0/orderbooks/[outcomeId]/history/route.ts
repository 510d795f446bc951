import { recordedBookHistory } from "@/lib/history/orderbooks";
import { json, withApiKey } from "@/lib/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/orderbooks/{outcomeId}/history — recorded books on a 1m/5m/1h grid, oldest first, cursor-paged (Pro and Enterprise)
export const GET = withApiKey<{ outcomeId: string }>(
  async ({ db, params, searchParams }) => json(await recordedBookHistory(db, params.outcomeId, searchParams)),
  { plan: "pro" },
);
