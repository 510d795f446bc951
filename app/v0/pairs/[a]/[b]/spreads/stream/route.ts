import { withApiKey } from "@/lib/http";
import { parseInput, parseQuery } from "@/lib/input";
import { pairRefParam, spreadStreamQuery } from "@/lib/spreads/shapes";
import { openSpreadStream } from "@/lib/streams/sse";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/pairs/{a}/{b}/spreads/stream — the pair's executable spread after fees as Server-Sent Events, at every change of either live book (Pro and Enterprise)
export const GET = withApiKey<{ a: string; b: string }>(
  async ({ request, params, searchParams, principal }) =>
    openSpreadStream(principal, parseInput(pairRefParam, params.a, "a"), parseInput(pairRefParam, params.b, "b"), parseQuery(spreadStreamQuery, searchParams).size, request.signal),
  { plan: "pro" },
);
