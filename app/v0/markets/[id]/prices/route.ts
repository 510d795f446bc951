import { marketPrices } from "@/lib/history/prices";
import { marketPricesQuery } from "@/lib/history/shapes";
import { json, withApiKey } from "@/lib/http";
import { parseQuery } from "@/lib/input";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/markets/{id}/prices — per outcome OHLC of the catalog's price snapshots, 1h or 1d buckets (every plan, every venue)
export const GET = withApiKey<{ id: string }>(async ({ db, ticks, params, searchParams }) => json({ data: await marketPrices(db, ticks, params.id, parseQuery(marketPricesQuery, searchParams)) }));
