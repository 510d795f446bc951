import { recordedBookAt } from "@/lib/history/orderbooks";
import { outcomeIdParam } from "@/lib/history/params";
import { orderBookQuery } from "@/lib/history/shapes";
import { json, withApiKey } from "@/lib/http";
import { parseInput, parseQuery } from "@/lib/input";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/orderbooks/{outcomeId}?at= — the recorded L2 book at an instant (Pro and Enterprise)
export const GET = withApiKey<{ outcomeId: string }>(
  async ({ db, ticks, params, searchParams }) => json({ data: await recordedBookAt(db, ticks, parseInput(outcomeIdParam, params.outcomeId, "outcomeId"), parseQuery(orderBookQuery, searchParams)) }),
  { plan: "pro" },
);
