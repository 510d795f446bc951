import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { healthAnswer, startHealthPort } from "@/lib/status/health-port.mjs";
import { HEALTH_STATE, LOOP_STALE_MS, PROBE_STALE_MS, STARTUP_PHASE, startupTask, STORE_STATE } from "@/lib/status/health-state.mjs";
import { healthMonitor, readiness } from "@/lib/status/health";
import { getTickStores } from "@/lib/ticks";

/**
 * The health port answers from a worker thread. The probe here runs in a child process started with
 * spawnSync, which blocks this (the request) thread for as long as the child runs: whatever answers
 * does so while the request thread's event loop cannot turn, as under saturation.
 */
function fetchWhileBlocked(port: number, paths: string[]): Array<{ status: number; body: Record<string, unknown> }> {
  const script = `Promise.all(${JSON.stringify(paths)}.map(async (p) => { const r = await fetch("http://127.0.0.1:${port}" + p); return { status: r.status, body: await r.json() }; })).then((a) => process.stdout.write(JSON.stringify(a)))`;
  const child = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", timeout: 10_000 });
  return JSON.parse(child.stdout) as Array<{ status: number; body: Record<string, unknown> }>;
}

let health: Awaited<ReturnType<typeof startHealthPort>>;

beforeAll(async () => {
  await getDb();
  await getTickStores();
  health = await startHealthPort({ port: 0, host: "127.0.0.1" });
});

afterAll(async () => {
  await health.close();
});

describe("the health port (HEALTH_PORT)", () => {
  it("answers liveness and readiness while the request thread is blocked", async () => {
    await healthMonitor().probeNow();
    const [live, ready, other] = fetchWhileBlocked(health.port, ["/live", "/ready", "/v0/markets"]);
    expect(live).toMatchObject({ status: 200, body: { status: "ok", loopAgeMs: expect.any(Number) } });
    expect(ready).toMatchObject({ status: 200, body: { status: "ok", stores: { postgres: "ok", clickhouse: "ok" }, checkedAt: expect.any(String) } });
    expect(other?.status).toBe(404);
  });

  it("says not ready before the first probe, and when a probe is stale or a store failed (an engine not opened yet is ready); not alive when the request thread stalls", () => {
    const now = 1_800_000_000_000;
    const state = new Float64Array(4);
    state[HEALTH_STATE.loopBeatAt] = now;
    expect(healthAnswer("/ready", state, now)).toMatchObject({ status: 503, body: { stores: { postgres: "unknown", clickhouse: "unknown" } } });
    state[HEALTH_STATE.checkedAt] = now;
    state[HEALTH_STATE.postgres] = 1;
    state[HEALTH_STATE.clickhouse] = 1;
    expect(healthAnswer("/ready", state, now).status).toBe(200);
    expect(healthAnswer("/ready", state, now + PROBE_STALE_MS + 1).status).toBe(503);
    state[HEALTH_STATE.clickhouse] = STORE_STATE.idle;
    expect(healthAnswer("/ready", state, now)).toMatchObject({ status: 200, body: { stores: { clickhouse: "idle" } } });
    state[HEALTH_STATE.clickhouse] = 0;
    expect(healthAnswer("/ready", state, now)).toMatchObject({ status: 503, body: { stores: { clickhouse: "unavailable" } } });
    expect(healthAnswer("/live", state, now + LOOP_STALE_MS)).toMatchObject({ status: 200 });
    expect(healthAnswer("/live", state, now + LOOP_STALE_MS + 1)).toMatchObject({ status: 503, body: { status: "stalled" } });
  });

  it("says not ready while start-up work runs, on the health port and on GET /v0/health", async () => {
    const now = 1_800_000_000_000;
    const state = new Float64Array(5);
    state[HEALTH_STATE.loopBeatAt] = now;
    state[HEALTH_STATE.checkedAt] = now;
    state[HEALTH_STATE.postgres] = 1;
    state[HEALTH_STATE.clickhouse] = 1;
    state[HEALTH_STATE.startup] = STARTUP_PHASE.pending;
    expect(healthAnswer("/ready", state, now)).toMatchObject({ status: 503, body: { status: "starting" } });
    state[HEALTH_STATE.startup] = STARTUP_PHASE.done;
    expect(healthAnswer("/ready", state, now).status).toBe(200);

    // The running health port's shared state follows the process's start-up tasks.
    await healthMonitor().probeNow();
    const first = startupTask("warming a test model");
    const second = startupTask("a second piece");
    expect(health.state[HEALTH_STATE.startup]).toBe(STARTUP_PHASE.pending);
    await expect(readiness()).rejects.toMatchObject({ code: "service_unavailable", message: "Starting: warming a test model, a second piece." });
    first();
    expect(fetchWhileBlocked(health.port, ["/ready"])[0]).toMatchObject({ status: 503, body: { status: "starting" } });
    second();
    expect(health.state[HEALTH_STATE.startup]).toBe(STARTUP_PHASE.done);
    await expect(readiness()).resolves.toMatchObject({ status: "ok" });
    expect(fetchWhileBlocked(health.port, ["/ready"])[0]).toMatchObject({ status: 200 });
  });
});
