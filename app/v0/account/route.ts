import { describeCaller } from "@/lib/auth/principal";
import { json, withApiKey } from "@/lib/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/account — the caller's account, plan and rate limit (a cheap way to check a key)
export const GET = withApiKey(async ({ principal }) => json(describeCaller(principal)));
