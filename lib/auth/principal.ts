import "server-only";
import { rateLimitFor, type Plan } from "./plans";

/** Who is calling: resolved by admission (./admission.ts) from an API key or the dashboard's session cookie. */
export interface Principal {
  accountId: string;
  email: string;
  plan: Plan;
  /** The API key's id; null when the request came from a dashboard session. */
  keyId: string | null;
  via: "key" | "session";
}

/**
 * The caller's owner string, the one name per-caller state is kept under (pass-through instances,
 * stream accounting, venue watchers): the key's id, or the account for a dashboard session.
 */
export function ownerOf(principal: Pick<Principal, "keyId" | "accountId">): string {
  return principal.keyId ?? `account:${principal.accountId}`;
}

/** What an active API key resolves to (admission's lookup, the embedded principal cache). */
export interface KeyPrincipal {
  keyId: string;
  accountId: string;
  email: string;
  plan: Plan;
}

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
