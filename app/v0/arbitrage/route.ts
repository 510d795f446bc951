import { json, withApiKey } from "@/lib/http";
import { findArbitrage } from "@/lib/matching/service";
import { arbitrageQuery } from "@/lib/matching/shapes";
import { parseQuery } from "@/lib/input";
import { venueBookPrices } from "@/lib/passthrough/venue-books";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/arbitrage — price inconsistencies between matched markets, gross of fees
export const GET = withApiKey(async ({ db, searchParams }) => json(await findArbitrage(db, parseQuery(arbitrageQuery, searchParams), venueBookPrices)));
