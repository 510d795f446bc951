import "server-only";
import { config } from "@/lib/config";
import { getKeyLimits } from "@/lib/limits";
import { errorFields, log } from "@/lib/log";
import { InProcessBus, type LiveBus } from "./bus";
import { StreamHub } from "./hub";
import { LivePublisher } from "./publisher";
import { recordStreamUsage } from "./usage";
import { createStreamServer, type StreamServer } from "./ws-server";

/*
 * Process-wide singletons on globalThis: Next compiles instrumentation (where the recorder starts)
 * and each route module as separate bundles, so module-level state would not be shared between
 * the recorder and /ws; globalThis is (the same way lib/recorder/service.ts keeps its recorder).
 */
const globalStore = globalThis as typeof globalThis & {
  __brierLiveBus?: Promise<LiveBus>;
  __brierStreamHub?: Promise<StreamHub>;
  __brierStreamServer?: StreamServer;
};

/** The live bus: NATS when NATS_URL is set, otherwise in-process. Connected once per process. */
export function getLiveBus(): Promise<LiveBus> {
  globalStore.__brierLiveBus ??= (async () => {
    const url = config.streams.natsUrl;
    if (url === undefined) return new InProcessBus();
    const { connectNatsBus } = await import("./nats-bus");
    return connectNatsBus(url, { prefix: config.streams.natsSubjectPrefix });
  })();
  globalStore.__brierLiveBus.catch(() => {
    globalStore.__brierLiveBus = undefined;
  });
  return globalStore.__brierLiveBus;
}

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

/** The recorder's publisher on the live bus; undefined (recording goes on) when the bus is unreachable. */
export async function livePublisher(): Promise<LivePublisher | undefined> {
  try {
    return new LivePublisher(await getLiveBus());
  } catch (error) {
    log.error("live bus unreachable: the recorder records without publishing live books", errorFields(error));
    return undefined;
  }
}

/** Closes the hub's sessions and the bus connection (shutdown). */
export async function closeLive(): Promise<void> {
  const hub = globalStore.__brierStreamHub;
  const bus = globalStore.__brierLiveBus;
  const server = globalStore.__brierStreamServer;
  globalStore.__brierStreamServer = undefined;
  globalStore.__brierStreamHub = undefined;
  globalStore.__brierLiveBus = undefined;
  await server?.close();
  await (await hub?.catch(() => undefined))?.close();
  await (await bus?.catch(() => undefined))?.close();
}
