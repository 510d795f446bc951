import { parseCronIngestQuery, runCronIngest } from "@/lib/jobs/catalog-cron";
import { json, withCronSecret } from "@/lib/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /api/cron/ingest — Vercel cron trigger of the catalog poll (Bearer CRON_SECRET)
export const GET = withCronSecret(async ({ searchParams }) => json(await runCronIngest(parseCronIngestQuery(searchParams))));
