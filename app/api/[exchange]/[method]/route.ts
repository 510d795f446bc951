import { json, readJsonBody, withApiKey, type KeyedContext, type Reply } from "@/lib/http";
import { callVenueMethod, PASSTHROUGH_MAX_BODY_BYTES, passthroughCaller, type PassthroughInput } from "@/lib/passthrough";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { exchange: string; method: string };

// POST|GET /api/:exchange/:method — pmxt-core's sidecar protocol over Brier's keys, limits and catalog
async function passthrough({ request, params, searchParams, principal, token }: KeyedContext<Params>): Promise<Reply> {
  const input: PassthroughInput =
    request.method === "GET" ? { kind: "query", query: searchParams } : { kind: "body", body: await readJsonBody(request, PASSTHROUGH_MAX_BODY_BYTES) };
  const { data, source } = await callVenueMethod({
    exchange: params.exchange,
    method: params.method,
    input,
    caller: passthroughCaller(principal, token),
    signal: request.signal,
  });
  return json({ success: true, data }, { headers: { "x-brier-source": source } });
}

export const GET = withApiKey<Params>(passthrough, { surface: "api" });
export const POST = withApiKey<Params>(passthrough, { surface: "api" });
