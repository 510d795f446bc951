import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * Top frames of a V8 CPU profile (`node --cpu-prof`), by self time, and the share of each code
 * owner (a package under node_modules, Brier's own code, Node internals, GC, idle).
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

function owner(url: string, functionName: string): string {
  if (functionName === "(garbage collector)") return "(gc)";
  if (functionName === "(idle)" || functionName === "(program)") return functionName;
  if (url === "") return "(native)";
  if (!url.includes("/")) return "node internals";
  if (url.startsWith("node:")) return "node internals";
  const file = path.basename(url);
  // Turbopack chunks are named after what they hold: node_modules_<package>_<hash>._.js, lib_…, app_…
  const chunkPackage = /^node_modules_((?:@[a-z0-9-]+_)?[a-z0-9.-]+?)_[0-9a-z]+\._\.js$/.exec(file)?.[1];
  if (url.includes("/.next")) {
    if (chunkPackage !== undefined) return `${chunkPackage} (bundled)`;
    if (/^(lib|app|components)_/.test(file) || file.includes("[root-of-the-server]")) return "brier (bundled)";
    if (file.includes("turbopack")) return "next (turbopack runtime)";
    return "other bundled chunks";
  }
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules?.[1] !== undefined) return inModules[1];
  if (url.includes("/server.mjs")) return "server.mjs (front)";
  return "brier";
}

/** A monotonic timestamp in microseconds, on the clock V8 stamps profile samples with (CLOCK_MONOTONIC). */
export const monotonicMicros = (): number => Number(process.hrtime.bigint() / 1000n);

/**
 * Summary of the samples taken between `window.from` and `window.to` (monotonicMicros() values
 * from any process on this machine: the bench marks its load phase, so start-up is left out).
 */
export function summarizeProfile(file: string, window?: { from: number; to: number }, top = 20): string {
  const profile = JSON.parse(readFileSync(file, "utf8")) as {
    nodes: ProfileNode[];
    startTime: number;
    endTime: number;
    samples: number[];
    timeDeltas: number[];
  };
  const counts = new Map<number, number>();
  let t = profile.startTime;
  let first = Infinity;
  let last = -Infinity;
  for (let i = 0; i < profile.samples.length; i += 1) {
    t += profile.timeDeltas[i] ?? 0;
    if (window !== undefined && (t < window.from || t > window.to)) continue;
    const id = profile.samples[i] ?? -1;
    counts.set(id, (counts.get(id) ?? 0) + 1);
    first = Math.min(first, t);
    last = Math.max(last, t);
  }
  const totalHits = [...counts.values()].reduce((a, b) => a + b, 0);
  const msPerHit = totalHits === 0 ? 0 : (last - first) / 1000 / totalHits;
  const byFrame = new Map<string, number>();
  const byOwner = new Map<string, number>();
  for (const node of profile.nodes) {
    const hits = counts.get(node.id) ?? 0;
    if (hits === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url === "" ? "" : ` ${path.basename(url)}:${lineNumber + 1}`;
    const frame = `${functionName || "(anonymous)"}${where} [${owner(url, functionName)}]`;
    byFrame.set(frame, (byFrame.get(frame) ?? 0) + hits);
    const who = owner(url, functionName);
    byOwner.set(who, (byOwner.get(who) ?? 0) + hits);
  }
  const pct = (hits: number) => `${((100 * hits) / totalHits).toFixed(1).padStart(5)}%`;
  const lines = [
    `profile ${path.basename(file)}: ${totalHits} samples over ${(totalHits * msPerHit).toFixed(0)} ms${window === undefined ? "" : " (the load phase only)"}`,
  ];
  lines.push("  self time by owner:");
  for (const [who, hits] of [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, 12)) lines.push(`    ${pct(hits)}  ${who}`);
  lines.push(`  top ${top} frames by self time:`);
  for (const [frame, hits] of [...byFrame].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`    ${pct(hits)}  ${frame}`);
  return lines.join("\n");
}

/** The newest .cpuprofile in a directory. */
export function newestProfile(dir: string, pid?: number): string | undefined {
  // With a pid: that process's main thread (thread id 0; worker threads write their own profiles).
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile") && (pid === undefined || f.includes(`.${pid}.0.`)))
    .sort();
  const last = files.at(-1);
  return last === undefined ? undefined : path.join(dir, last);
}
