import type { Metadata } from "next";
import { StatusView } from "@/components/status/status-view";
import { requireAccount } from "@/lib/auth/page-session";

export const metadata: Metadata = { title: "Status" };

// Status: catalog ingestion per venue and recorder health, from GET /v0/status.
export default async function StatusPage() {
  await requireAccount("/status");
  return <StatusView />;
}
