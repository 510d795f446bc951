import { describe, expect, it } from "vitest";
import { revokeApiKey } from "@/lib/auth/api-keys";
import type { Plan } from "@/lib/auth/plans";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db";
import { makeKey } from "./keys";
import { callRoute, type CallOptions, type RouteHandler } from "./routes";

export interface KeyedRouteSpec<P> {
  name: string;
  handler: RouteHandler<P>;
  /** A valid request to the route, without the key. */
  request: Omit<CallOptions<P>, "key">;
  surface: "v0" | "api";
  /** Lowest plan the route accepts (default free). */
  plan?: Plan;
}

function errorCode(surface: "v0" | "api", body: unknown): string | undefined {
  const b = body as { error?: { code?: string }; success?: boolean };
  if (surface === "api") expect(b.success).toBe(false);
  return b.error?.code;
}

/**
 * The shared auth suite every keyed route runs: missing, malformed, unknown and revoked keys,
 * a plan too low, and the rate limit with its headers and Retry-After.
 */
export function describeKeyedRoute<P>(spec: KeyedRouteSpec<P>): void {
  const unauthorized = spec.surface === "v0" ? "unauthorized" : "AUTHENTICATION_ERROR";
  const plan = spec.plan ?? "free";

  describe(`${spec.name}: shared auth suite`, () => {
    it("refuses a request without a key (401, request id)", async () => {
      const res = await callRoute(spec.handler, spec.request);
      expect(res.status).toBe(401);
      expect(errorCode(spec.surface, res.body)).toBe(unauthorized);
      expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    });

    it.each([
      ["not bearer", "Basic dXNlcjpwYXNz"],
      ["wrong prefix", "Bearer sk_live_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"],
      ["too short", "Bearer brier_live_short"],
      ["bearer without a key", "Bearer "],
    ])("refuses a malformed key (%s)", async (_label, header) => {
      const res = await callRoute(spec.handler, { ...spec.request, headers: { ...spec.request.headers, authorization: header } });
      expect(res.status).toBe(401);
      expect(errorCode(spec.surface, res.body)).toBe(unauthorized);
    });

    it("refuses an unknown key", async () => {
      const res = await callRoute(spec.handler, { ...spec.request, key: `brier_live_${"A".repeat(43)}` });
      expect(res.status).toBe(401);
      expect(errorCode(spec.surface, res.body)).toBe(unauthorized);
    });

    it("refuses a revoked key on the very next request", async () => {
      const { key, keyId, accountId } = await makeKey(plan);
      const before = await callRoute(spec.handler, { ...spec.request, key });
      expect(before.status).not.toBe(401);
      await revokeApiKey(await getDb(), accountId, keyId);
      const after = await callRoute(spec.handler, { ...spec.request, key });
      expect(after.status).toBe(401);
      expect(errorCode(spec.surface, after.body)).toBe(unauthorized);
    });

    if (plan !== "free") {
      it(`refuses a plan below ${plan} with 403 naming the plan`, async () => {
        const { key } = await makeKey("free");
        const res = await callRoute(spec.handler, { ...spec.request, key });
        expect(res.status).toBe(403);
        expect(JSON.stringify(res.body)).toContain(plan);
      });
    }

    it("sends rate-limit headers and answers 429 with Retry-After past the plan's limit", async () => {
      const limit = config.rateLimits[plan];
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const { key } = await makeKey(plan);
        const sentAt = Date.now();
        const first = await callRoute(spec.handler, { ...spec.request, key });
        expect(first.headers.get("x-ratelimit-limit")).toBe(String(limit));
        expect(first.headers.get("x-ratelimit-remaining")).toBe(String(limit - 1));
        const reset = first.headers.get("x-ratelimit-reset");
        // The end of the window the request was counted in: after it was sent (it may have ended
        // by now, if the request straddled a minute boundary), at most a minute later.
        expect(Number(reset)).toBeGreaterThan(sentAt / 1000);
        expect(Number(reset)).toBeLessThanOrEqual(Math.ceil(sentAt / 1000) + 61);
        let last = first;
        for (let i = 1; i < limit; i += 1) last = await callRoute(spec.handler, { ...spec.request, key });
        const refused = await callRoute(spec.handler, { ...spec.request, key });
        // A minute boundary between the first and the last request resets the window: try again.
        if (refused.headers.get("x-ratelimit-reset") !== reset) continue;
        expect(last.status).not.toBe(429);
        expect(refused.status).toBe(429);
        expect(errorCode(spec.surface, refused.body)).toBe(spec.surface === "v0" ? "rate_limited" : "RATE_LIMIT_EXCEEDED");
        expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
        const retryAfter = Number(refused.headers.get("retry-after"));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
        return;
      }
      throw new Error("could not fit the rate-limit test inside one window in three attempts");
    });
  });
}
