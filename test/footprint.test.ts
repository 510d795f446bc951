import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { getDb, openDatabase, resultRows } from "@/lib/db";
import { openTickStoresAtStart } from "@/lib/jobs/background";
import { healthMonitor, readiness } from "@/lib/status/health";
import { HEALTH_STATE, STORE_STATE } from "@/lib/status/health-state.mjs";
import { startHealthPort } from "@/lib/status/health-port.mjs";
import { ENGINE_MEMORY_TTL_MS, engineTrackedMb, processMemory } from "@/lib/status/process";
import { getTickStores, tickStoresOpened } from "@/lib/ticks";
import { startCommand } from "../scripts/lib/start-command";
import { scratchRoot, seedMigratedDatabase } from "./helpers/scratch";

/**
 * What a server holds in memory before any request needs it (docs/performance.md, "Memory"): the
 * embedded chDB is loaded at its first use when no background job needs it, and PGlite's buffer
 * cache is PGLITE_SHARED_BUFFERS_MB, not PostgreSQL's 128 MB. Test processes run with
 * BACKGROUND_JOBS=false (test/setup.ts), as the pass-through bench's server does.
 */

/** Whether chDB's native library is mapped into this process (it is ~150 MB resident once loaded). */
const chdbLoaded = () => readFileSync("/proc/self/maps", "utf8").includes("chdb");

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("embedded chDB without background jobs", () => {
  it("is locked at start but loaded only by the first read that needs it; health and status do not load it", async () => {
    const health = await startHealthPort({ port: 0, host: "127.0.0.1" });
    try {
      // What the background jobs' start does with the tick stores (lib/jobs/background.ts).
      await openTickStoresAtStart();
      expect(config.embeddedClickhouse && !config.backgroundJobs).toBe(true);
      // The data dir is ours from the start: a second process would be refused now, not at first use.
      expect(readFileSync(path.join(config.dataDir, ".lock-ch"), "utf8")).toBe(String(process.pid));
      expect(tickStoresOpened()).toBe(false);

      // The relational store opened before the probe: its first open in a process (PGlite, migrations)
      // took longer than the probe's 3 s deadline on a loaded CI run, and this test is about chDB.
      await getDb();
      await healthMonitor().probeNow();
      expect(health.state[HEALTH_STATE.clickhouse]).toBe(STORE_STATE.idle);
      await expect(readiness()).resolves.toMatchObject({ status: "ok", stores: { clickhouse: "idle" } });
      expect(await processMemory()).toMatchObject({ clickhouseTrackedMb: null });
      expect(tickStoresOpened()).toBe(false);
      expect(chdbLoaded()).toBe(false);

      const stores = await getTickStores();
      const rows = await (await stores.queries.query({ query: "SELECT 1 AS one", format: "JSONEachRow" })).json<{ one: number }>();
      expect(rows).toEqual([{ one: 1 }]);
      expect(chdbLoaded()).toBe(true);
      await healthMonitor().probeNow();
      expect(health.state[HEALTH_STATE.clickhouse]).toBe(STORE_STATE.ok);
      await expect(readiness()).resolves.toMatchObject({ stores: { clickhouse: "ok" } });
      // The figure read while the engine was closed is reused for ENGINE_MEMORY_TTL_MS; past it, read from the engine.
      expect((await processMemory(Date.now() + ENGINE_MEMORY_TTL_MS)).clickhouseTrackedMb).toEqual(expect.any(Number));
    } finally {
      healthMonitor().stop();
      await health.close();
    }
  });
});

describe("the status page's engine memory figure", () => {
  it("is read at most once per ENGINE_MEMORY_TTL_MS, callers within it sharing the read", async () => {
    let reads = 0;
    const read = async () => {
      reads += 1;
      return reads;
    };
    const t0 = Date.now() + 10 * ENGINE_MEMORY_TTL_MS;
    const [a, b] = await Promise.all([engineTrackedMb(read, t0), engineTrackedMb(read, t0 + 1)]);
    expect(await engineTrackedMb(read, t0 + ENGINE_MEMORY_TTL_MS - 1)).toBe(a);
    expect([a, b, reads]).toEqual([1, 1, 1]);
    expect(await engineTrackedMb(read, t0 + ENGINE_MEMORY_TTL_MS)).toBe(2);
  });
});

describe("PGlite's buffer cache", () => {
  /** A migrated PGlite data dir of its own (a copy of the run's template when there is one). */
  function pgliteDir(): string {
    const dir = mkdtempSync(path.join(scratchRoot(), "brier-footprint-"));
    dirs.push(dir);
    seedMigratedDatabase(dir);
    return path.join(dir, "pg");
  }

  it("is PGLITE_SHARED_BUFFERS_MB (32 by default), and a target may set its own", async () => {
    expect(config.pgliteSharedBuffersMb).toBe(32);
    for (const [target, expected] of [[{}, "32MB"], [{ sharedBuffersMb: 16 }, "16MB"]] as const) {
      const handle = await openDatabase({ dataDir: pgliteDir(), ...target });
      try {
        expect(handle.driver).toBe("pglite");
        const [row] = resultRows<{ shared_buffers: string }>(await handle.db.execute(sql`show shared_buffers`));
        expect(row?.shared_buffers).toBe(expected);
      } finally {
        await handle.close();
      }
    }
  });
});

describe("the V8 heap after start-up", () => {
  it("is given back by one memory-reducing GC: a heap grown by start-up-like allocation shrinks to its live part", () => {
    // In a process of its own, with `npm start`'s node flags (64 MB semi-spaces, heap-growing factor 1.5): start-up's
    // allocation grows the young generation to its maximum, and nothing gives it back at idle (lib/status/settle-heap.mjs).
    const code = [
      `import { settleHeap } from ${JSON.stringify(path.resolve("lib/status/settle-heap.mjs"))};`,
      "let kept = [];",
      "for (let i = 0; i < 4e6; i += 1) { kept.push({ i, list: [i] }); if (kept.length > 1e6) kept = kept.slice(5e5); }",
      "kept = null;",
      "console.log(JSON.stringify(await settleHeap()));",
    ].join("\n");
    const child = spawnSync(process.execPath, [...startCommand().nodeArgs, "--input-type=module", "-e", code], { encoding: "utf8", timeout: 20_000 });
    expect(child.stderr).toBe("");
    const heap = JSON.parse(child.stdout) as { settled: boolean; beforeMb: number; afterMb: number };
    expect(heap.settled).toBe(true);
    expect(heap.beforeMb).toBeGreaterThan(100);
    expect(heap.afterMb).toBeLessThan(heap.beforeMb / 4);
  });
});
