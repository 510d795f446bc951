import { outcomeIdParam } from "@/lib/history/params";
import { tradesQuery } from "@/lib/history/shapes";
import { recordedTrades } from "@/lib/history/trades";
import { json, withApiKey } from "@/lib/http";
import { parseInput, parseQuery } from "@/lib/input";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/trades/{outcomeId} — recorded trades (last_trade_price), newest first, cursor-paged (Pro and Enterprise)
export const GET = withApiKey<{ outcomeId: string }>(
  async ({ db, ticks, params, searchParams }) => json(await recordedTrades(db, ticks, parseInput(outcomeIdParam, params.outcomeId, "outcomeId"), parseQuery(tradesQuery, searchParams))),
  { plan: "pro" },
);
