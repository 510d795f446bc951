import type { Metadata } from "next";
import { CalibrationView } from "@/components/calibration/calibration-view";
import { planAtLeast } from "@/lib/auth/plans";
import { requireAccount } from "@/lib/auth/page-session";

export const metadata: Metadata = { title: "Calibration" };

// Calibration: each venue's prices scored against the outcomes, reliability per venue, by category and horizon, head to head (data from /v0/calibration).
export default async function CalibrationPage() {
  const account = await requireAccount("/calibration");
  return <CalibrationView allowed={planAtLeast(account.plan, "pro")} />;
}
