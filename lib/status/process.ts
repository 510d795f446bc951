import "server-only";
import { getTickStores, tickRows, tickStoresOpened } from "@/lib/ticks";

/**
 * When this process started: the status page's "up since". Taken from the process's own uptime,
 * so it is the start of the server, not the first time a module asked for it.
 */
export function processStartedAt(): Date {
  return new Date(Math.round((Date.now() - process.uptime() * 1000) / 1000) * 1000);
}

const MB = 1024 * 1024;

/**
 * What this process's resident memory is made of (docs/performance.md, "Memory"): the V8 heap,
 * memory outside it (the embedded PostgreSQL's WebAssembly heap is most of `externalMb`), and what
 * the embedded ClickHouse engine tracks of its own (caches, running queries); the rest of the
 * resident set is code and the engines' native allocations.
 */
export async function processMemory(now = Date.now()): Promise<Record<string, number | null>> {
  const usage = process.memoryUsage();
  return {
    rssMb: Math.round(usage.rss / MB),
    heapUsedMb: Math.round(usage.heapUsed / MB),
    heapTotalMb: Math.round(usage.heapTotal / MB),
    externalMb: Math.round(usage.external / MB),
    arrayBuffersMb: Math.round(usage.arrayBuffers / MB),
    clickhouseTrackedMb: await engineTrackedMb(readEngineTrackedMb, now),
  };
}

/**
 * How long the embedded engine's own memory figure is reused. Read per call, every status request
 * took a turn of the service's two chDB read connections (the history routes' pool): under the
 * load bench, one request in nine queued there for a figure that moves by the second.
 */
export const ENGINE_MEMORY_TTL_MS = 5_000;

let engineMemory: { at: number; mb: Promise<number | null> } | undefined;

/** The engine's tracked memory, read at most once per ENGINE_MEMORY_TTL_MS (callers within it share the read). */
export function engineTrackedMb(read: () => Promise<number | null>, now = Date.now()): Promise<number | null> {
  if (engineMemory === undefined || now - engineMemory.at >= ENGINE_MEMORY_TTL_MS || now < engineMemory.at) {
    engineMemory = { at: now, mb: read() };
  }
  return engineMemory.mb;
}

async function readEngineTrackedMb(): Promise<number | null> {
  try {
    // Not opened yet (lib/jobs/background.ts): asking would load the engine this figure is about.
    const stores = tickStoresOpened() ? await getTickStores() : undefined;
    if (stores?.engine !== "chdb") return null;
    const [row] = await tickRows<[number | string]>(stores.service, "SELECT value FROM system.metrics WHERE metric = 'MemoryTracking'");
    return row === undefined ? null : Math.round(Number(row[0]) / MB);
  } catch {
    return null;
  }
}
