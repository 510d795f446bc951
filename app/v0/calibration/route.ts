import { getCalibration } from "@/lib/calibration/service";
import { calibrationQuery } from "@/lib/calibration/shapes";
import { json, withApiKey } from "@/lib/http";
import { parseQuery } from "@/lib/input";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/calibration — Brier score, log loss and reliability bins of each venue's prices at horizons before the close, over the markets that resolved in a window; head to head on identity pairs (Pro and Enterprise)
export const GET = withApiKey(async ({ db, ticks, searchParams }) => json(await getCalibration(db, ticks, parseQuery(calibrationQuery, searchParams))), { plan: "pro" });
