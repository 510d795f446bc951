import { json, withRequest } from "@/lib/http";
import { checkHealth } from "@/lib/status/health";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/health — no key: 200 when PostgreSQL and ClickHouse both answer, 503 naming the one that does not
export const GET = withRequest(async () => json(await checkHealth()));
