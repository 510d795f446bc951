import { getMarketOrThrow } from "@/lib/catalog/resolve";
import { json, withApiKey } from "@/lib/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/markets/{id} — one market by catalog UUID, slug, venue id, contractAddress or outcomeId
export const GET = withApiKey<{ id: string }>(async ({ db, params }) => json({ data: await getMarketOrThrow(db, params.id) }));
