import { beforeAll, describe, expect, it } from "vitest";
import { GET as account } from "@/app/v0/account/route";
import { GET as health } from "@/app/v0/health/route";
import { GET as status } from "@/app/v0/status/route";
import { getDb } from "@/lib/db";
import { getTickStores } from "@/lib/ticks";
import { describeKeyedRoute } from "./helpers/auth-suite";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

describe("GET /v0/health", () => {
  beforeAll(async () => {
    // Opening PGlite (WASM) and applying migrations is start-up work, not what health measures.
    await getDb();
    await getTickStores();
  });

  it("answers 200 without a key when both stores answer", async () => {
    const res = await callRoute(health, { path: "/v0/health" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", stores: { postgres: "ok", clickhouse: "ok" } });
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });
});

describe("GET /v0/status", () => {
  it("answers 200 with a key", async () => {
    const { key } = await makeKey("free");
    const res = await callRoute(status, { path: "/v0/status", key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ service: { stores: expect.any(Object) } });
  });
});

describeKeyedRoute({ name: "GET /v0/status", handler: status, request: { path: "/v0/status" }, surface: "v0" });

describe("GET /v0/account", () => {
  it("says whose key it is, the plan and the rate limit", async () => {
    const { key, keyId, accountId, email } = await makeKey("pro");
    const res = await callRoute(account, { path: "/v0/account", key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ accountId, email, plan: "pro", authenticatedBy: "key", keyId, rateLimit: { requestsPerMinute: 1000 } });
  });
});

describeKeyedRoute({ name: "GET /v0/account", handler: account, request: { path: "/v0/account" }, surface: "v0" });

describe("unknown /v0 paths", () => {
  it("answer a JSON 404 in the /v0 error shape", async () => {
    const { GET: unknown } = await import("@/app/v0/[...path]/route");
    const res = await callRoute(unknown, { path: "/v0/nope", params: { path: ["nope"] } });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: { code: "not_found", message: expect.stringContaining("/v0/nope") } });
  });
});
