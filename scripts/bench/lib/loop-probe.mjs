// Loaded into a benchmarked server with `node --import` (scripts/bench/load.ts): once a second it
// appends one JSON line to BENCH_LOOP_FILE with the request thread's event-loop delay over that
// second (p99 and max, from perf_hooks' histogram) and the process's memory by kind. A stall shows
// as a line that comes late and whose max is the stall's length. Never part of the product.
import { appendFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { isMainThread } from "node:worker_threads";

const file = process.env.BENCH_LOOP_FILE;
// The request thread only (`--import` also runs in worker threads, such as the health port's).
if (isMainThread && file !== undefined && file !== "") {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const timer = setInterval(() => {
    const memory = process.memoryUsage();
    const line = {
      t: Date.now(),
      p99: histogram.percentile(99) / 1e6,
      max: histogram.max / 1e6,
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      heapTotal: memory.heapTotal,
      external: memory.external,
      arrayBuffers: memory.arrayBuffers,
    };
    histogram.reset();
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  }, 1000);
  timer.unref();
}
