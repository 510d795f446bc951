import { recordedTrades } from "@/lib/history/trades";
import { json, withApiKey } from "@/lib/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/trades/{outcomeId} — recorded trades (last_trade_price), newest first, cursor-paged (Pro and Enterprise)
export const GET = withApiKey<{ outcomeId: string }>(
  async ({ db, params, searchParams }) => json(await recordedTrades(db, params.outcomeId, searchParams)),
  { plan: "pro" },
);
