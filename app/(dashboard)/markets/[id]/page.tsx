import type { Metadata } from "next";
import { Suspense } from "react";
import { MarketView } from "@/components/market/market-view";
import { SkeletonRows } from "@/components/ui/query-state";
import { planAtLeast } from "@/lib/auth/plans";
import { requireAccount } from "@/lib/auth/page-session";
import { getMarketOrThrow } from "@/lib/catalog/resolve";
import { getDb } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import { recordingRules } from "@/lib/recorder/registry";
import { notFound } from "next/navigation";

export const metadata: Metadata = { title: "Market" };

// Market page: the record and charts load client-side from the same API a keyed client uses.
export default async function MarketPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const account = await requireAccount(`/markets/${encodeURIComponent(id)}`);
  // An id no market answers to is a 404 page (./not-found.tsx), not a 200 with an error inside.
  await getMarketOrThrow(await getDb(), id).catch((error: unknown) => {
    if (error instanceof NotFoundError) notFound();
    throw error;
  });
  // The chart state (outcome, interval, range) is read from the URL on the client.
  return (
    <Suspense fallback={<SkeletonRows rows={8} height={60} />}>
      <MarketView id={id} historyAllowed={planAtLeast(account.plan, "enterprise")} plan={account.plan} recording={recordingRules()} />
    </Suspense>
  );
}
