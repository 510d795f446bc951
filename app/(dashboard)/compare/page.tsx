import type { Metadata } from "next";
import { CompareView } from "@/components/matching/compare-view";
import { requireAccount } from "@/lib/auth/page-session";

export const metadata: Metadata = { title: "Compare venues" };

// Compare: matched pairs across venues, largest price difference first (data from /v0/matched-markets).
export default async function ComparePage() {
  await requireAccount("/compare");
  return <CompareView />;
}
