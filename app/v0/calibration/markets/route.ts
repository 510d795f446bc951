import { getCalibrationMarkets } from "@/lib/calibration/service";
import { calibrationMarketsQuery } from "@/lib/calibration/shapes";
import { json, withApiKey } from "@/lib/http";
import { parseQuery } from "@/lib/input";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/calibration/markets — the markets behind a calibration figure: each forecast, its source and instant, and the outcome (Pro and Enterprise)
export const GET = withApiKey(async ({ db, ticks, searchParams }) => json(await getCalibrationMarkets(db, ticks, parseQuery(calibrationMarketsQuery, searchParams))), { plan: "pro" });
