import path from "node:path";
import { ensureAccount, setPlan } from "@/lib/auth/accounts";
import { createApiKey } from "@/lib/auth/api-keys";
import { openDatabase } from "@/lib/db";

/**
 * An enterprise key for a benchmark, created before the server starts: an embedded store
 * (DATA_DIR/pg) belongs to one process at a time.
 */
export async function createBenchKey(options: { databaseUrl: string | undefined; dataDir: string }): Promise<string> {
  const handle = await openDatabase({ url: options.databaseUrl, dataDir: path.join(options.dataDir, "pg") });
  try {
    const email = `bench-${Date.now()}@example.test`;
    const { account } = await ensureAccount(handle.db, email);
    await setPlan(handle.db, email, "enterprise");
    return (await createApiKey(handle.db, account.id, "bench")).key;
  } finally {
    await handle.close();
  }
}
