import { json, withApiKey } from "@/lib/http";
import { findArbitrage } from "@/lib/matching/service";
import { arbitrageQuery, parseMatchQuery } from "@/lib/matching/shapes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/arbitrage — price inconsistencies between matched markets, gross of fees
export const GET = withApiKey(async ({ db, searchParams }) => json(await findArbitrage(db, parseMatchQuery(arbitrageQuery, searchParams))));
