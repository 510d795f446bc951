import "server-only";
import type { Principal } from "@/lib/http";
import { rateLimitFor } from "./plans";

/**
 * GET /v0/account: who a key (or session) belongs to, its plan and its rate limit. Everything
 * comes from the principal the wrapper already resolved, so the answer costs no extra query.
 */
export function describeCaller(principal: Principal) {
  return {
    accountId: principal.accountId,
    email: principal.email,
    plan: principal.plan,
    authenticatedBy: principal.via,
    keyId: principal.keyId,
    rateLimit: { requestsPerMinute: rateLimitFor(principal.plan) },
  };
}
