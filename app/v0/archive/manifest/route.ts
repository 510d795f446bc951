import { archiveManifest } from "@/lib/archive/manifest";
import { manifestQuery } from "@/lib/archive/shapes";
import { json, withApiKey } from "@/lib/http";
import { parseQuery } from "@/lib/input";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/archive/manifest?date= — per UTC hour of a day: rows, assets, checksum, condition (every plan)
export const GET = withApiKey(async ({ db, ticks, searchParams }) => json(await archiveManifest(db, ticks, parseQuery(manifestQuery, searchParams))));
