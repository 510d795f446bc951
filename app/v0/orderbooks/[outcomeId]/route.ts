import { recordedBookAt } from "@/lib/history/orderbooks";
import { json, withApiKey } from "@/lib/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/orderbooks/{outcomeId}?at= — the recorded L2 book at an instant (Pro and Enterprise)
export const GET = withApiKey<{ outcomeId: string }>(
  async ({ db, params, searchParams }) => json({ data: await recordedBookAt(db, params.outcomeId, searchParams) }),
  { plan: "pro" },
);
