import { json, withApiKey } from "@/lib/http";
import { listWatchlist } from "@/lib/watchlist/watchlist";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/watchlist — the caller's starred markets, most recently starred first
export const GET = withApiKey(async ({ db, principal }) => json(await listWatchlist(db, principal.accountId)));
