import { json, withApiKey } from "@/lib/http";
import { parseInput, parseQuery } from "@/lib/input";
import { pairRefParam, spreadsQuery } from "@/lib/spreads/shapes";
import { getPairSpreads } from "@/lib/spreads/service";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/pairs/{a}/{b}/spreads — both recorded books on one clock: best levels, gross and executable spread after fees, cursor-paged (Pro and Enterprise)
export const GET = withApiKey<{ a: string; b: string }>(
  async ({ db, ticks, params, searchParams }) =>
    json(await getPairSpreads(db, ticks, parseInput(pairRefParam, params.a, "a"), parseInput(pairRefParam, params.b, "b"), parseQuery(spreadsQuery, searchParams))),
  { plan: "pro" },
);
