import { json, withRequest } from "@/lib/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/health/live — no key, liveness: 200 whenever the process answers; touches no store (a restart would not fix one)
export const GET = withRequest(async () => json({ status: "ok" }));
