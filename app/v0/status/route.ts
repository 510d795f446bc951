import { json, withApiKey } from "@/lib/http";
import { getServiceStatus } from "@/lib/status/service-status";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/status — ingestion status of the catalog poller and the tick recorder
export const GET = withApiKey(async ({ db }) => json(await getServiceStatus(db)));
