import { encode } from "next-auth/jwt";
import { describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { setPlan } from "@/lib/auth/accounts";
import { getAuthSecret } from "@/lib/auth/secret";
import { getDb } from "@/lib/db";
import { apiKeys, usage } from "@/lib/db/schema";
import { InvalidParameterError, NotFoundError } from "@/lib/errors";
import { json, withApiKey } from "@/lib/http";
import { flushUsage } from "@/lib/auth/usage";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

const ok = withApiKey(async ({ principal }) => json({ plan: principal.plan, via: principal.via }));

describe("withApiKey", () => {
  it("writes one usage row per keyed request after the response, and debounces lastUsedAt", async () => {
    const { key, keyId, accountId } = await makeKey("pro");
    const first = await callRoute(ok, { path: "/v0/things?secret=dont-store-me", key });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ plan: "pro", via: "key" });
    await callRoute(ok, { path: "/v0/things", key });
    const db = await getDb();
    expect(await db.select().from(usage)).toHaveLength(0); // nothing written on the request path
    await flushUsage();
    const rows = await db.select().from(usage).where(eq(usage.keyId, keyId));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ accountId, method: "GET", path: "/v0/things", status: 200 });
    expect(rows.map((r) => r.requestId)).toContain(first.headers.get("x-request-id"));
    const [keyRow] = await db.select().from(apiKeys).where(eq(apiKeys.id, keyId));
    expect(keyRow?.lastUsedAt).toBeInstanceOf(Date);
  });

  it("logs refused requests of a known key too (429s count as usage)", async () => {
    const refusing = withApiKey(async () => {
      throw new InvalidParameterError("limit", "limit must be a positive integer");
    });
    const { key, keyId } = await makeKey();
    const res = await callRoute(refusing, { path: "/v0/x?limit=-1", key });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: "invalid_parameter", message: "limit must be a positive integer", parameter: "limit" } });
    await flushUsage();
    const rows = await (await getDb()).select().from(usage).where(eq(usage.keyId, keyId));
    expect(rows.map((r) => r.status)).toEqual([400]);
  });

  it("answers an unexpected error with a generic 500 that leaks nothing, and logs the stack", async () => {
    const spy = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const exploding = withApiKey(async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'password_hash') at /srv/lib/secret.ts:12");
    });
    const { key } = await makeKey();
    const res = await callRoute(exploding, { path: "/v0/x", key });
    spy.mockRestore();
    expect(res.status).toBe(500);
    expect(res.text).not.toMatch(/password_hash|TypeError|secret\.ts/);
    expect(res.body).toMatchObject({ error: { code: "internal_error", requestId: res.headers.get("x-request-id") } });
  });

  it("uses pmxt's envelope on the api surface", async () => {
    const missing = withApiKey(
      async () => {
        throw new NotFoundError("market", "abc");
      },
      { surface: "api" },
    );
    const { key } = await makeKey();
    const res = await callRoute(missing, { path: "/api/mock/fetchMarket", key });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: "No market matches 'abc'.", retryable: false } });
    const unauth = await callRoute(missing, { path: "/api/mock/fetchMarket" });
    expect(unauth.body).toMatchObject({ success: false, error: { code: "AUTHENTICATION_ERROR" } });
  });

  it("passes pmxt-core errors through with their own status and code on the api surface", async () => {
    const { MarketNotFound } = await import("pmxt-core");
    const venue = withApiKey(
      async () => {
        throw new MarketNotFound("m-1", "mock");
      },
      { surface: "api" },
    );
    const { key } = await makeKey();
    const res = await callRoute(venue, { path: "/api/mock/fetchMarket", key });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      success: false,
      error: { code: "MARKET_NOT_FOUND", message: "Market not found: m-1", retryable: false, exchange: "mock" },
    });
  });

  it("accepts the dashboard's session cookie when no Authorization header is sent", async () => {
    const { accountId } = await makeKey("enterprise");
    const token = await encode({ token: { sub: accountId }, secret: getAuthSecret() });
    const res = await callRoute(ok, { path: "/v0/things", headers: { cookie: `other=1; next-auth.session-token=${token}` } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ plan: "enterprise", via: "session" });
    expect(res.headers.get("x-ratelimit-limit")).toBe("6000");

    const forged = await encode({ token: { sub: accountId }, secret: "another-secret-entirely-xxxxxxxxxxxx" });
    const refused = await callRoute(ok, { path: "/v0/things", headers: { cookie: `next-auth.session-token=${forged}` } });
    expect(refused.status).toBe(401);
  });

  it("applies a plan change on the very next request", async () => {
    const { key, email } = await makeKey("free");
    expect((await callRoute(ok, { path: "/v0/things", key })).headers.get("x-ratelimit-limit")).toBe("60");
    await setPlan(await getDb(), email, "pro");
    const after = await callRoute(ok, { path: "/v0/things", key });
    expect(after.body).toEqual({ plan: "pro", via: "key" });
    expect(after.headers.get("x-ratelimit-limit")).toBe("1000");
  });

  it("enforces the plan with 403 naming the required plan", async () => {
    const sql = withApiKey(async () => json({}), { plan: "enterprise", planErrorCode: "sql_access_denied" });
    const { key } = await makeKey("pro");
    const res = await callRoute(sql, { path: "/v0/sql", key });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: { code: "sql_access_denied", requiredPlan: "enterprise", plan: "pro" } });
  });
});
