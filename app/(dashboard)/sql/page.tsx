import type { Metadata } from "next";
import { Suspense } from "react";
import { SqlConsole } from "@/components/sql/sql-console";
import { planAtLeast } from "@/lib/auth/plans";
import { requireAccount } from "@/lib/auth/page-session";

export const metadata: Metadata = { title: "SQL console" };

// SQL console over the recorded order books (POST /v0/sql); ?q= prefills the editor.
export default async function SqlPage() {
  const account = await requireAccount("/sql");
  return (
    <Suspense>
      <SqlConsole allowed={planAtLeast(account.plan, "enterprise")} plan={account.plan} />
    </Suspense>
  );
}
