import type { Metadata } from "next";
import { CalibrationMarkets } from "@/components/calibration/calibration-markets";
import { requireAccount } from "@/lib/auth/page-session";

export const metadata: Metadata = { title: "Calibration: the markets behind a figure" };

// The markets behind a calibration figure (data from /v0/calibration/markets with the figure's parameters).
export default async function CalibrationMarketsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireAccount("/calibration");
  const raw = await searchParams;
  const search: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(raw)) search[name] = Array.isArray(value) ? value[0] : value;
  return <CalibrationMarkets search={search} />;
}
