import { recordedBookHistory } from "@/lib/history/orderbooks";
import { outcomeIdParam } from "@/lib/history/params";
import { orderBookHistoryQuery } from "@/lib/history/shapes";
import { json, withApiKey } from "@/lib/http";
import { parseInput, parseQuery } from "@/lib/input";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/orderbooks/{outcomeId}/history — recorded books on a 1m/5m/1h grid, oldest first, cursor-paged (Pro and Enterprise)
export const GET = withApiKey<{ outcomeId: string }>(
  async ({ db, ticks, params, searchParams }) => json(await recordedBookHistory(db, ticks, parseInput(outcomeIdParam, params.outcomeId, "outcomeId"), parseQuery(orderBookHistoryQuery, searchParams))),
  { plan: "pro" },
);
