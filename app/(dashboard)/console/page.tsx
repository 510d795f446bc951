import type { Metadata } from "next";
import { Suspense } from "react";
import { PassthroughConsole } from "@/components/console/passthrough-console";
import { catalogVenues } from "@/lib/catalog/venues";
import { getConsoleTable } from "@/lib/passthrough/console-table";
import { requireAccount } from "@/lib/auth/page-session";

export const metadata: Metadata = { title: "Pass-through console" };

// Pass-through console: pickers from the installed pmxt-core's route table.
export default async function ConsolePage() {
  await requireAccount("/console");
  return (
    <Suspense>
      <PassthroughConsole table={getConsoleTable()} catalogExchanges={catalogVenues()} />
    </Suspense>
  );
}
