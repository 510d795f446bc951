import { getEventOrThrow } from "@/lib/catalog/resolve";
import { json, withApiKey } from "@/lib/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/events/{id} — one event with all its markets, by catalog UUID, slug or venue id
export const GET = withApiKey<{ id: string }>(async ({ db, params }) => json({ data: await getEventOrThrow(db, params.id) }));
