import { json, withRequest } from "@/lib/http";
import { readiness } from "@/lib/status/health";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/health — no key, readiness: 200 when the last background probe found both stores answering (with its age), 503 naming the one that did not
export const GET = withRequest(async () => json(await readiness()));
