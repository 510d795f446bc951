import type { Metadata } from "next";
import { Suspense } from "react";
import { PassthroughConsole } from "@/components/console/passthrough-console";
import { getConsoleTable } from "@/lib/dashboard/passthrough-table";
import { requireAccount } from "@/lib/dashboard/session";

export const metadata: Metadata = { title: "Pass-through console" };

// Pass-through console: pickers from the installed pmxt-core's route table.
export default async function ConsolePage() {
  await requireAccount("/console");
  return (
    <Suspense>
      <PassthroughConsole table={getConsoleTable()} />
    </Suspense>
  );
}
