// V8's heap after start-up, given back before the server says it is ready (docs/performance.md,
// "Memory: what it is made of").
//
// Start-up (Next, the API's route modules, PGlite's open and migrations) leaves V8's heap at
// ~240 MB committed for ~145 MB used: the young generation grown to `npm start`'s 2 × 64 MB
// semi-spaces by start-up's own allocation, and the old generation's garbage. V8 gives that back
// only in a memory-reducing full GC, which its memory reducer runs when the process looks idle; on
// Node 20 that check never passes at idle (it samples every 8 s, and an embedder allocation rate of
// 0 reads as a high rate), so only the reducer's watchdog runs it, ~100 s after the last GC:
// until then ~95 MB more is resident. With `--optimize-for-size` the reducer's next 8-s check runs
// that GC whatever the rate (V8 reads the flag at each check, as "the process is in the
// background"): the flag is set for that one GC and cleared as soon as it ran. Plain JavaScript:
// server.mjs runs it.
import { constants, PerformanceObserver } from "node:perf_hooks";
import v8 from "node:v8";
import { pendingStartup, startupTask } from "./health-state.mjs";

/** The start-up task that holds readiness until the heap has settled. */
export const HEAP_SETTLE_TASK = "V8 heap given back after start-up";
/** Longest wait for the memory-reducing GC: one 8-s check of V8's memory reducer and the GC itself. */
export const HEAP_SETTLE_MAX_MS = 10_000;
/** How often the other start-up tasks are looked at while they run. */
const STARTUP_POLL_MS = 100;

/** V8's committed heap, in MB. */
const committedMb = () => Math.round(v8.getHeapStatistics().total_heap_size / 1048576);

/**
 * Resolves once a full GC ran with V8 optimising for size (a memory-reducing GC), or after maxMs;
 * V8's flag is back to what the process started with either way. A process started with
 * `--optimize-for-size` keeps it (then there is nothing to do).
 */
export function settleHeap({ maxMs = HEAP_SETTLE_MAX_MS } = {}) {
  const startedAt = performance.now();
  const before = committedMb();
  if (process.execArgv.includes("--optimize-for-size")) return Promise.resolve({ settled: false, beforeMb: before, afterMb: before, ms: 0 });
  return new Promise((resolve) => {
    let observer;
    let timer;
    const finish = (settled) => {
      observer.disconnect();
      clearTimeout(timer);
      v8.setFlagsFromString("--no-optimize-for-size");
      resolve({ settled, beforeMb: before, afterMb: committedMb(), ms: Math.round(performance.now() - startedAt) });
    };
    observer = new PerformanceObserver((list) => {
      if (list.getEntries().some((entry) => entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)) finish(true);
    });
    observer.observe({ entryTypes: ["gc"] });
    timer = setTimeout(() => finish(false), maxMs);
    v8.setFlagsFromString("--optimize-for-size");
  });
}

/**
 * Declares HEAP_SETTLE_TASK now (readiness stays false), waits for every other start-up task to
 * end (the heap is settled once start-up has allocated everything), settles the heap, then ends
 * the task. Resolves with settleHeap's figures.
 */
export async function settleHeapAfterStartup() {
  const done = startupTask(HEAP_SETTLE_TASK);
  try {
    while (pendingStartup().some((task) => task !== HEAP_SETTLE_TASK)) {
      await new Promise((resolve) => setTimeout(resolve, STARTUP_POLL_MS));
    }
    return await settleHeap();
  } finally {
    done();
  }
}
