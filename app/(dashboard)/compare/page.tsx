import type { Metadata } from "next";
import { CompareView } from "@/components/matching/compare-view";
import { requireAccount } from "@/lib/auth/page-session";
import { catalogStatus } from "@/lib/catalog/status";
import { getDb } from "@/lib/db";

export const metadata: Metadata = { title: "Compare venues" };

// Compare: matched pairs across venues, largest price difference first (data from /v0/matched-markets).
export default async function ComparePage() {
  await requireAccount("/compare");
  // Which venues have open markets: with fewer than two, the page says why nothing can pair.
  const { venues } = await catalogStatus(await getDb());
  return <CompareView venuesWithMarkets={venues.filter((v) => v.markets.open > 0).map((v) => ({ venue: v.venue, open: v.markets.open }))} />;
}
