import { json, withApiKey, type KeyedContext } from "@/lib/http";
import { callVenueMethod, passthroughCaller, readPassthroughInput } from "@/lib/passthrough";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { exchange: string; method: string };

// POST|GET /api/:exchange/:method — pmxt-core's sidecar protocol over Brier's keys, limits and catalog
async function passthrough({ request, params, searchParams, principal }: KeyedContext<Params>): Promise<Response> {
  const { data, source } = await callVenueMethod({
    exchange: params.exchange,
    method: params.method,
    input: await readPassthroughInput(request, searchParams),
    caller: passthroughCaller(principal, request),
    signal: request.signal,
  });
  return json({ success: true, data }, { headers: { "x-brier-source": source } });
}

export const GET = withApiKey<Params>(passthrough, { surface: "api" });
export const POST = withApiKey<Params>(passthrough, { surface: "api" });
