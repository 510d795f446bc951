import "server-only";
import { getKeyLimits } from "@/lib/limits";
import { getLiveBus } from "@/lib/live/connection";
import { StreamHub } from "./hub";
import { recordStreamUsage } from "./usage";
import { createStreamServer, type StreamServer } from "./ws-server";
import { processGlobals } from "@/lib/process-globals.mjs";

/*
 * Process-wide singletons on globalThis: Next compiles instrumentation (where the recorder starts)
 * and each route module as separate bundles, so module-level state would not be shared between
 * the recorder and /ws; globalThis is (the same way lib/recorder/polymarket/service.ts keeps its recorder).
 */
const globalStore = processGlobals<{
  __brierStreamHub?: Promise<StreamHub>;
  __brierStreamServer?: StreamServer;
}>();

/** The process's stream hub (sessions of /ws and /v0/stream) on the live bus. */
export function getStreamHub(): Promise<StreamHub> {
  globalStore.__brierStreamHub ??= Promise.all([getLiveBus(), getKeyLimits()]).then(
    ([bus, keyLimits]) => new StreamHub({ bus, keyLimits, onUsage: recordStreamUsage }),
  );
  globalStore.__brierStreamHub.catch(() => {
    globalStore.__brierStreamHub = undefined;
  });
  return globalStore.__brierStreamHub;
}

/** The process's /ws endpoint (an upgrade handler on the process's hub). */
export function getStreamServer(): StreamServer {
  return (globalStore.__brierStreamServer ??= createStreamServer({ hub: getStreamHub }));
}

/** Closes the /ws endpoint and the hub's sessions (shutdown, before the bus itself). */
export async function closeStreams(): Promise<void> {
  const hub = globalStore.__brierStreamHub;
  const server = globalStore.__brierStreamServer;
  globalStore.__brierStreamServer = undefined;
  globalStore.__brierStreamHub = undefined;
  await server?.close();
  await (await hub?.catch(() => undefined))?.close();
}
