import "server-only";
import type { Db } from "@/lib/db";
import type { Principal } from "@/lib/http";
import { getAccountOrThrow } from "./accounts";
import { rateLimitFor } from "./plans";

/** GET /v0/account: who a key (or session) belongs to, its plan and its rate limit. */
export async function describeCaller(db: Db, principal: Principal) {
  const account = await getAccountOrThrow(db, principal.accountId);
  return {
    accountId: account.id,
    email: account.email,
    plan: account.plan,
    authenticatedBy: principal.via,
    keyId: principal.keyId,
    rateLimit: { requestsPerMinute: rateLimitFor(account.plan) },
  };
}
