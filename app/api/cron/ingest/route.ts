import { runCronIngest } from "@/lib/catalog/cron";
import { json, withRequest } from "@/lib/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /api/cron/ingest — Vercel cron trigger of the catalog poll (Bearer CRON_SECRET)
export const GET = withRequest(async ({ request, searchParams }) =>
  json(await runCronIngest(request.headers.get("authorization"), searchParams)),
);
