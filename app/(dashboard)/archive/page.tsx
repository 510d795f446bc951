import type { Metadata } from "next";
import { ArchiveView } from "@/components/archive/archive-view";
import { planAtLeast } from "@/lib/auth/plans";
import { requireAccount } from "@/lib/auth/page-session";

export const metadata: Metadata = { title: "Archive" };

// Archive: per venue and UTC day, the hours with their condition and Parquet download links.
export default async function ArchivePage() {
  const account = await requireAccount("/archive");
  // The UTC day is decided once, here: the server render and the hydrated page show the same day.
  const today = new Date().toISOString().slice(0, 10);
  return <ArchiveView downloadAllowed={planAtLeast(account.plan, "enterprise")} plan={account.plan} today={today} />;
}
