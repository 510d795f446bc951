import { archiveFileResponse } from "@/lib/archive/download";
import { withApiKey } from "@/lib/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET|HEAD /v0/archive/{venue}/{date}/{HH}.parquet — one closed UTC hour as Parquet (Enterprise: docs/history.md, "Archive files")
export const GET = withApiKey<{ venue: string; date: string; file: string }>(
  async ({ db, request, params }) => archiveFileResponse(db, request, params),
  { plan: "enterprise" },
);

export const HEAD = GET;
