import { json, withApiKey } from "@/lib/http";
import { parseInput, parseQuery } from "@/lib/input";
import { episodesQuery, pairRefParam } from "@/lib/spreads/shapes";
import { getPairEpisodes } from "@/lib/spreads/service";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/pairs/{a}/{b}/episodes — stretches of an executable spread after fees above a threshold, and a summary per UTC day (Pro and Enterprise)
export const GET = withApiKey<{ a: string; b: string }>(
  async ({ db, ticks, params, searchParams }) =>
    json(await getPairEpisodes(db, ticks, parseInput(pairRefParam, params.a, "a"), parseInput(pairRefParam, params.b, "b"), parseQuery(episodesQuery, searchParams))),
  { plan: "pro" },
);
