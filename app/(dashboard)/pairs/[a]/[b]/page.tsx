import type { Metadata } from "next";
import { PairView } from "@/components/spreads/pair-view";
import { planAtLeast } from "@/lib/auth/plans";
import { requireAccount } from "@/lib/auth/page-session";
import { foldPairOnOpen } from "@/lib/spreads/days-ahead";

export const metadata: Metadata = { title: "Pair spread" };

// Pair page: both recorded books of a matched pair on one clock, the spread after fees, episodes (data from /v0/pairs/{a}/{b}/...).
export default async function PairPage({ params }: { params: Promise<{ a: string; b: string }> }) {
  const { a, b } = await params;
  const account = await requireAccount(`/pairs/${encodeURIComponent(a)}/${encodeURIComponent(b)}`);
  const allowed = planAtLeast(account.plan, "pro");
  // The 7-day window's closed days start folding now, while the page loads and shows its 24 hours (not awaited).
  if (allowed) foldPairOnOpen(decodeURIComponent(a), decodeURIComponent(b));
  return <PairView a={decodeURIComponent(a)} b={decodeURIComponent(b)} allowed={allowed} />;
}
