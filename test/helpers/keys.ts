import { ensureAccount, setPlan } from "@/lib/auth/accounts";
import { createApiKey } from "@/lib/auth/api-keys";
import type { Plan } from "@/lib/auth/plans";
import { getDb } from "@/lib/db";

let counter = 0;

/** Makes an account on `plan` with one fresh API key, in the test's database. */
export async function makeKey(plan: Plan = "free", email?: string): Promise<{ key: string; keyId: string; accountId: string; email: string }> {
  const db = await getDb();
  counter += 1;
  const address = email ?? `user${counter}-${Date.now()}@example.test`;
  const { account } = await ensureAccount(db, address);
  await setPlan(db, address, plan);
  const created = await createApiKey(db, account.id, `test key ${counter}`);
  return { key: created.key, keyId: created.id, accountId: account.id, email: address };
}
