import { json, withApiKey } from "@/lib/http";
import { addToWatchlist, removeFromWatchlist } from "@/lib/watchlist/watchlist";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// PUT /v0/watchlist/{marketId} — star a market (any id form /v0/markets/{id} accepts); idempotent
export const PUT = withApiKey<{ marketId: string }>(async ({ db, principal, params }) =>
  json(await addToWatchlist(db, principal.accountId, params.marketId)),
);

// DELETE /v0/watchlist/{marketId} — unstar a market; idempotent, 404 only for an unknown market
export const DELETE = withApiKey<{ marketId: string }>(async ({ db, principal, params }) =>
  json(await removeFromWatchlist(db, principal.accountId, params.marketId)),
);
