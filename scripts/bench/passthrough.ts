/**
 * bench:passthrough — Brier's /api/mock/* against pmxt-core's own sidecar (`startServer`) serving
 * the same calls, in the same run, same connections and duration. Brier does auth (key lookup),
 * the per-minute rate limit (counted in Postgres), usage rows, arg validation and the per-key
 * concurrency cap on every request; the sidecar does a token compare. Needs a build first:
 *
 *   NEXT_DIST_DIR=.next-passthrough npx next build   (or npm run build)
 *   npm run bench:passthrough [-- --seconds 10 --connections 32 --port 3200]
 *
 * `--footprint` (a few minutes): 3 s per load phase unless --seconds says otherwise, and both
 * servers' resident set split by part, idle and after the load: V8's heap (used and committed),
 * memory outside it (PGlite's WebAssembly heap is an ArrayBuffer), and /proc/<pid>/smaps by mapping
 * (chDB's library, the node binary, other libraries, anonymous memory).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { benchDataDir } from "./lib/harness";
import { createBenchKey } from "./lib/keys";
import { printLoadTable, runLoad, type LoadResult } from "./lib/load";
import { loadLine, memoryReport, processCpuMs, processMemory, residentByMapping } from "./lib/memory";
import { monotonicMicros, newestProfile, summarizeProfile } from "./lib/profile";
import { startEnv, startFlags, startServer } from "./lib/server";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "" },
    connections: { type: "string", default: "32" },
    port: { type: "string", default: "3200" },
    // Write a CPU profile of Brier's server over its load phases into this directory and print its top frames.
    profile: { type: "string", default: "" },
    // Short load phases and each server's resident set split by part, idle and after the load.
    footprint: { type: "boolean", default: false },
    // Node flags added after the start script's own (a later V8 flag wins), e.g. "--max-semi-space-size=32":
    // a start-up setting measured against the deployed one, each in its own run of this bench.
    "server-flags": { type: "string", default: "" },
    // Environment added to Brier's server only (never the sidecar's), e.g. "MALLOC_TRIM_THRESHOLD_=131072".
    "server-env": { type: "string", default: "" },
  },
});
const profileDir = values.profile;
const footprint = values.footprint;
const serverFlags = values["server-flags"].split(/\s+/).filter((flag) => flag !== "");
const serverEnv = Object.fromEntries(
  values["server-env"]
    .split(/\s+/)
    .filter((word) => word.includes("="))
    .map((word) => [word.slice(0, word.indexOf("=")), word.slice(word.indexOf("=") + 1)]),
);
const seconds = values.seconds === "" ? (footprint ? 3 : 10) : Number(values.seconds);
const connections = Number(values.connections);
const port = Number(values.port);
const sidecarPort = port + 1;
const sidecarToken = "bench-sidecar-token";
const { dir: dataDir, remove: removeDataDir } = benchDataDir("passthrough");
const databaseUrl = process.env.DATABASE_URL;
/** The loop probe writes each server's process.memoryUsage() here once a second (footprint mode). */
const probeFiles = { brier: path.join(tmpdir(), `brier-footprint-${process.pid}-brier.jsonl`), sidecar: path.join(tmpdir(), `brier-footprint-${process.pid}-sidecar.jsonl`) };
const probeArgs = footprint ? ["--import", path.resolve("scripts/bench/lib/loop-probe.mjs")] : [];

/** One server's resident set by part (footprint mode): its newest memoryUsage() line and its mappings. */
function partsLine(label: string, pid: number | undefined, probeFile: string): string {
  const mb = (bytes: unknown) => (typeof bytes === "number" ? `${Math.round(bytes / 1048576)}` : "?");
  let usage: Record<string, unknown> = {};
  try {
    usage = JSON.parse(readFileSync(probeFile, "utf8").trim().split("\n").at(-1) ?? "{}") as Record<string, unknown>;
  } catch {
    // no line yet
  }
  const mappings = pid === undefined ? undefined : residentByMapping(pid);
  const byMapping = mappings === undefined ? "unavailable" : Object.entries(mappings).map(([name, value]) => `${name} ${value}`).join(", ");
  return (
    `  ${label}: RSS ${mb(usage.rss)} MB; V8 heap used ${mb(usage.heapUsed)} / committed ${mb(usage.heapTotal)} MB; ` +
    `external ${mb(usage.external)} MB (array buffers ${mb(usage.arrayBuffers)} MB); by mapping (MB): ${byMapping}`
  );
}

function printParts(when: string, brierPid: number | undefined, sidecarPid: number | undefined): void {
  if (!footprint) return;
  console.log(`footprint by part, ${when}:`);
  console.log(partsLine("brier  ", brierPid, probeFiles.brier));
  console.log(partsLine("sidecar", sidecarPid, probeFiles.sidecar));
}

const cases = [
  { name: "fetchOrderBook", method: "fetchOrderBook", body: JSON.stringify({ args: ["mock-m1-yes"] }) },
  { name: "fetchMarkets(20)", method: "fetchMarkets", body: JSON.stringify({ args: [{ limit: 20 }] }) },
];

/** pmxt-core's sidecar in its own process, like Brier's server: neither shares a core with autocannon's process. */
async function startSidecar(): Promise<{ url: string; pid: number | undefined; stop: () => Promise<void> }> {
  const code = `require("pmxt-core").startServer(${sidecarPort}, ${JSON.stringify(sidecarToken)}).then(() => console.log("ready"))`;
  const child: ChildProcess = spawn(process.execPath, [...probeArgs, "-e", code], {
    env: { ...process.env, NODE_ENV: "production", BENCH_LOOP_FILE: probeFiles.sidecar },
    stdio: ["ignore", "pipe", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("sidecar did not start in 30 s")), 30_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (exitCode) => reject(new Error(`sidecar exited (${exitCode})`)));
  });
  child.stdout?.resume();
  child.stderr?.resume();
  return {
    url: `http://127.0.0.1:${sidecarPort}`,
    pid: child.pid,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

async function main(): Promise<void> {
  console.log(`bench:passthrough — ${connections} connections, ${seconds} s per case, store: ${databaseUrl ? "PostgreSQL" : "embedded PGlite"}`);
  const launcherEnv = Object.entries(startEnv()).map(([name, value]) => `${name}=${value} `).join("");
  console.log(`server: ${launcherEnv}node ${[...startFlags(), ...serverFlags].join(" ")} server.mjs; added environment: ${values["server-env"] || "none"}`);
  console.log(loadLine("at start"));
  const key = await createBenchKey({ databaseUrl, dataDir });

  const brier = await startServer({
    port,
    nodeArgs: [...serverFlags, ...probeArgs, ...(profileDir === "" ? [] : ["--cpu-prof", `--cpu-prof-dir=${profileDir}`])],
    distDir: process.env.NEXT_DIST_DIR ?? (await firstBuild()),
    env: {
      DATA_DIR: dataDir,
      BACKGROUND_JOBS: "false",
      LOG_LEVEL: "warn",
      // The limiter still counts every request; the limits are raised so the bench measures 200s.
      RATE_LIMIT_ENTERPRISE: "1000000000",
      PASSTHROUGH_MAX_CONCURRENT: String(connections * 2),
      BENCH_LOOP_FILE: probeFiles.brier,
      ...serverEnv,
    },
  });
  const sidecar = await startSidecar();
  // Idle: both servers up, no request served yet (issue 27's footprint target: Brier <= 2x the sidecar).
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const idle = { brier: processMemory(brier.pid ?? -1)?.rssMb, sidecar: processMemory(sidecar.pid ?? -1)?.rssMb };
  printParts("idle (before any request)", brier.pid, sidecar.pid);
  // Brier's load phases only (the sidecar's phases in between are idle time for Brier's server).
  const windows: Array<{ from: number; to: number }> = [];
  try {
    const rows: LoadResult[] = [];
    const ratios: string[] = [];
    const cpuLines: string[] = [];
    /** CPU ms the process used per request over a load phase (warm-up included). */
    const cpuPer = (pid: number | undefined, before: number | undefined, result: LoadResult) => {
      const after = processCpuMs(pid);
      return before === undefined || after === undefined ? undefined : (after - before) / (result.requests + result.warmupRequests);
    };
    for (const c of cases) {
      const sidecarCpu = processCpuMs(sidecar.pid);
      const baseline = await runLoad({
        name: `sidecar ${c.name}`,
        url: `${sidecar.url}/api/mock/${c.method}`,
        connections,
        seconds,
        method: "POST",
        headers: { "content-type": "application/json", "x-pmxt-access-token": sidecarToken },
        body: c.body,
      });
      const sidecarPerRequest = cpuPer(sidecar.pid, sidecarCpu, baseline);
      const from = monotonicMicros();
      const brierCpu = processCpuMs(brier.pid);
      const ours = await runLoad({
        name: `brier   ${c.name}`,
        url: `${brier.url}/api/mock/${c.method}`,
        connections,
        seconds,
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body: c.body,
      });
      windows.push({ from, to: monotonicMicros() });
      const brierPerRequest = cpuPer(brier.pid, brierCpu, ours);
      if (sidecarPerRequest !== undefined && brierPerRequest !== undefined) {
        cpuLines.push(
          `${c.name}: server CPU per request brier ${brierPerRequest.toFixed(3)} ms, sidecar ${sidecarPerRequest.toFixed(3)} ms, ` +
            `sidecar/brier = ${(sidecarPerRequest / brierPerRequest).toFixed(2)}x (>= 1.0: Brier spends less CPU per call)`,
        );
      }
      rows.push(baseline, ours);
      ratios.push(`${c.name}: brier/sidecar = ${(ours.rps / baseline.rps).toFixed(2)}x ${ours.rps >= baseline.rps ? "(>= 1.0 target: PASS)" : "(below the 1.0 target)"}`);
    }
    printLoadTable(rows);
    for (const line of ratios) console.log(line);
    for (const line of cpuLines) console.log(line);
    if (rows.some((r) => r.non2xx > 0 || r.errors > 0)) console.log("warning: some responses were not 2xx; the figures include them");
    console.log(memoryReport([{ label: "brier server", pid: brier.pid }, { label: "sidecar", pid: sidecar.pid }]));
    const after = { brier: processMemory(brier.pid ?? -1)?.rssMb, sidecar: processMemory(sidecar.pid ?? -1)?.rssMb };
    const ratio = (m: { brier: number | undefined; sidecar: number | undefined }) =>
      m.brier === undefined || m.sidecar === undefined ? "unavailable" : `brier ${m.brier} MB / sidecar ${m.sidecar} MB = ${(m.brier / m.sidecar).toFixed(2)}x`;
    // The loop probe writes once a second: wait for a line taken after the load.
    if (footprint) await new Promise((resolve) => setTimeout(resolve, 1500));
    printParts("after the load", brier.pid, sidecar.pid);
    console.log(`footprint idle (before any request): ${ratio(idle)}; after the load: ${ratio(after)} (target <= 2.0x idle, 2.5x after the load)`);
    console.log(loadLine("at end"));
  } finally {
    await sidecar.stop();
    await brier.stop();
    const file = profileDir === "" ? undefined : newestProfile(profileDir);
    const first = windows[0];
    const last = windows.at(-1);
    if (file !== undefined && first !== undefined && last !== undefined) {
      // One window per case: summarise each separately.
      for (const [i, window] of windows.entries()) console.log(`\n${cases[i]?.name ?? ""}: ${summarizeProfile(file, window)}`);
    }
    removeDataDir();
    for (const file of Object.values(probeFiles)) rmSync(file, { force: true });
  }
}

/** `.next` unless only this area's build folder exists. */
async function firstBuild(): Promise<string> {
  const { existsSync } = await import("node:fs");
  return existsSync(".next/BUILD_ID") || !existsSync(".next-passthrough/BUILD_ID") ? ".next" : ".next-passthrough";
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
