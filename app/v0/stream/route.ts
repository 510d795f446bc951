import { withApiKey } from "@/lib/http";
import { openBookStream, parseStreamQuery } from "@/lib/streams/sse";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/stream?outcomeIds=a,b — live order books as Server-Sent Events (key or dashboard session)
export const GET = withApiKey(async ({ request, searchParams, principal }) =>
  openBookStream(principal, parseStreamQuery(searchParams), request.signal),
);
