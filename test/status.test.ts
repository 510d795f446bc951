import { beforeAll, describe, expect, it } from "vitest";
import { GET as account } from "@/app/v0/account/route";
import { GET as live } from "@/app/v0/health/live/route";
import { GET as health } from "@/app/v0/health/route";
import { GET as status } from "@/app/v0/status/route";
import { getDb } from "@/lib/db";
import { HEALTH_STALE_AFTER_MS, HealthMonitor, readiness, STORE_IDLE } from "@/lib/status/health";
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

  it("answers 200 without a key when both stores answer, with the probe's time and age", async () => {
    const res = await callRoute(health, { path: "/v0/health" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", stores: { postgres: "ok", clickhouse: "ok" }, checkedAt: expect.any(String), ageMs: expect.any(Number) });
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect((await callRoute(live, { path: "/v0/health/live" })).body).toEqual({ status: "ok" });
  });

  it("answers from the last background probe: never waits behind work that keeps a store busy", async () => {
    expect((await callRoute(health, { path: "/v0/health" })).status).toBe(200);
    const stores = await getTickStores();
    // The connection health probes (one statement at a time) is busy for about two seconds.
    const order: string[] = [];
    const busy = stores.writer
      .query({ query: "SELECT sleepEachRow(0.25) FROM numbers(8) SETTINGS max_block_size = 8", format: "JSONEachRow" })
      .then((result) => result.json())
      .then(() => order.push("store work"));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const answer = await callRoute(health, { path: "/v0/health" }).then((res) => {
      order.push("health");
      return res;
    });
    await busy;
    expect(answer.status).toBe(200);
    expect(order).toEqual(["health", "store work"]);
  });
});

describe("readiness from the health monitor", () => {
  it("503 naming a store that did not answer the last probe", async () => {
    const monitor = new HealthMonitor({ postgres: async () => undefined, clickhouse: () => Promise.reject(new Error("down")) }, 60_000);
    await expect(readiness(monitor)).rejects.toMatchObject({ code: "service_unavailable", message: expect.stringMatching(/Not answering: clickhouse/) });
    monitor.stop();
  });

  it("ready with an engine not opened yet (idle), which a probe never opens", async () => {
    const monitor = new HealthMonitor({ postgres: async () => undefined, clickhouse: async () => STORE_IDLE }, 60_000);
    await expect(readiness(monitor)).resolves.toMatchObject({ status: "ok", stores: { postgres: "ok", clickhouse: "idle" } });
    monitor.stop();
  });

  it("a probe that hangs does not hold the answer: the last result and its age are served", async () => {
    let hang = false;
    const monitor = new HealthMonitor({ postgres: async () => (hang ? new Promise(() => undefined) : undefined) }, 60_000);
    const first = await readiness(monitor);
    hang = true;
    void monitor.probeNow();
    // 50 ms of wall clock (a 50 ms timer may fire after 49 of Date.now's milliseconds).
    const waitedFrom = Date.now();
    while (Date.now() - waitedFrom < 50) await new Promise((resolve) => setTimeout(resolve, 10));
    const second = await readiness(monitor);
    expect(second.checkedAt).toBe(first.checkedAt);
    expect(second.ageMs).toBeGreaterThanOrEqual(50);
    monitor.stop();
  });

  it("probes again when the last result is older than the stale limit (a frozen instance's timer did not run)", async () => {
    let probes = 0;
    const monitor = new HealthMonitor({ postgres: async () => (probes += 1) }, 60_000);
    await readiness(monitor);
    await readiness(monitor);
    expect(probes).toBe(1);
    await readiness(monitor, Date.now() + HEALTH_STALE_AFTER_MS + 1);
    expect(probes).toBe(2);
    monitor.stop();
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
