import autocannon from "autocannon";
import { printTable } from "./harness";

export interface LoadResult {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** Requests of the warm-up before the measurement (for per-request costs over both). */
  warmupRequests: number;
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  name: string;
  url: string;
  connections: number;
  seconds: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Drives one URL over loopback with autocannon (a short warm-up first) and summarises it. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const base = {
    url: options.url,
    connections: options.connections,
    method: options.method ?? "GET",
    headers: options.headers ?? {},
    ...(options.body !== undefined ? { body: options.body } : {}),
  };
  const warmup = await autocannon({ ...base, duration: Math.min(3, options.seconds) });
  const result = await autocannon({ ...base, duration: options.seconds });
  return {
    name: options.name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    warmupRequests: warmup.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** The load cases' table: req/s, latency and failures per case. */
export function printLoadTable(rows: LoadResult[]): void {
  printTable(
    ["case", "req/s", "p50 ms", "p99 ms", "requests", "non-2xx", "errors"],
    rows.map((r) => [r.name, r.rps.toFixed(0), r.p50.toFixed(1), r.p99.toFixed(1), String(r.requests), String(r.non2xx), String(r.errors)]),
  );
}
