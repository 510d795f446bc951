/**
 * The one bench harness: what every `scripts/bench/*.ts` shares (percentiles, the in-process data
 * dir and its settings, timing, the aligned result table). The load line (`loadLine`) and memory
 * lines live in `./memory`, HTTP load in `./load`, a server under test in `./server`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * The value at rank floor((n - 1) * p) of an ascending array (NaN when empty): p50 of 4 runs is the
 * lower middle. One convention for every bench so their figures compare.
 */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? Number.NaN;
}

/** Count, p50, p90, p99 and max of unsorted times. */
export function summarize(times: readonly number[]): { n: number; p50: number; p90: number; p99: number; max: number } {
  const sorted = [...times].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 0.5), p90: percentile(sorted, 0.9), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? Number.NaN };
}

/** The percentile of a histogram of whole milliseconds (index = ms, value = count): the first ms reaching p of the total. */
export function histogramPercentile(histogram: Uint32Array, p: number): number {
  let total = 0;
  for (const n of histogram) total += n;
  if (total === 0) return 0;
  let seen = 0;
  for (let ms = 0; ms < histogram.length; ms += 1) {
    seen += histogram[ms] ?? 0;
    if (seen >= total * p) return ms;
  }
  return histogram.length - 1;
}

/** Runs `task` and returns its wall time in ms with its result. */
export async function timed<T>(task: () => Promise<T> | T): Promise<{ ms: number; result: T }> {
  const t0 = performance.now();
  const result = await task();
  return { ms: performance.now() - t0, result };
}

export interface BenchDataDir {
  dir: string;
  /** Removes the directory (and everything the stores wrote in it). */
  remove(): void;
}

/**
 * A fresh data dir for one bench. With `inProcess` the bench opens the stores itself: the dir
 * becomes this process's `DATA_DIR`, background jobs are off, the log is quiet, and `env` is set on
 * top (before any `@/lib` module reads its configuration, so call this at the top of the file and
 * import `@/lib` modules dynamically after it).
 */
export function benchDataDir(name: string, options: { inProcess?: boolean; env?: Record<string, string> } = {}): BenchDataDir {
  const dir = mkdtempSync(path.join(tmpdir(), `brier-bench-${name}-`));
  if (options.inProcess) {
    process.env.DATA_DIR = dir;
    process.env.BACKGROUND_JOBS = "false";
    process.env.LOG_LEVEL = "error";
    Object.assign(process.env, options.env ?? {});
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Prints rows under a header, the first column left-aligned and the others right-aligned. */
export function printTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const fmt = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ");
  console.log(fmt(header));
  for (const row of rows) console.log(fmt(row));
}
