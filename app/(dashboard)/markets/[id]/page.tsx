import type { Metadata } from "next";
import { MarketView } from "@/components/market/market-view";
import { planAtLeast } from "@/lib/auth/plans";
import { requireAccount } from "@/lib/dashboard/session";

export const metadata: Metadata = { title: "Market" };

// Market page: the record and charts load client-side from the same API a keyed client uses.
export default async function MarketPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const account = await requireAccount(`/markets/${encodeURIComponent(id)}`);
  return <MarketView id={id} historyAllowed={planAtLeast(account.plan, "enterprise")} plan={account.plan} />;
}
