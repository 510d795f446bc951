import "server-only";
import { sql } from "drizzle-orm";
import { withDeadline } from "@/lib/async";
import { getDb } from "@/lib/db";
import { ServiceUnavailableError } from "@/lib/errors";
import { getTickStores } from "@/lib/ticks";

const CHECK_TIMEOUT_MS = 3_000;

type StoreState = "ok" | "unavailable";

async function probe(check: () => Promise<unknown>): Promise<StoreState> {
  try {
    await withDeadline(check(), CHECK_TIMEOUT_MS, () => new Error("timed out"));
    return "ok";
  } catch {
    return "unavailable";
  }
}

/** Asks both stores a trivial question; throws a 503 naming whichever does not answer. */
export async function checkHealth(): Promise<{ status: "ok"; stores: Record<string, StoreState> }> {
  const [postgres, clickhouse] = await Promise.all([
    probe(async () => (await getDb()).execute(sql`select 1`)),
    probe(async () => (await getTickStores()).writer.query({ query: "SELECT 1", format: "JSONEachRow" })),
  ]);
  const stores = { postgres, clickhouse };
  const down = Object.entries(stores).filter(([, state]) => state !== "ok").map(([name]) => name);
  if (down.length > 0) throw new ServiceUnavailableError(`Not answering: ${down.join(", ")}.`, { stores });
  return { status: "ok", stores };
}
