import { json, withApiKey } from "@/lib/http";
import { parseQuery } from "@/lib/input";
import { listResolutions, resolutionsQuery } from "@/lib/outcomes/list";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/resolutions?venue=&state=&since=&until=&cursor=&limit= — every change of a market's outcome, in the order Brier learned them
export const GET = withApiKey(async ({ searchParams }) => json(await listResolutions(parseQuery(resolutionsQuery, searchParams))));
