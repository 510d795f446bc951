import "server-only";
import { config } from "@/lib/config";
import { errorFields, log } from "@/lib/log";
import { InProcessBus, type LiveBus } from "./bus";
import { LivePublisher } from "./publisher";
import { processGlobals } from "@/lib/process-globals.mjs";

/*
 * A process-wide singleton on globalThis: Next compiles instrumentation (where the recorder starts)
 * and each route module as separate bundles, so module-level state would not be shared between
 * the recorder and the stream servers; globalThis is.
 */
const globalStore = processGlobals<{ __brierLiveBus?: Promise<LiveBus> }>();

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

/** The recorder's publisher on the live bus; undefined (recording goes on) when the bus is unreachable. */
export async function livePublisher(): Promise<LivePublisher | undefined> {
  try {
    return new LivePublisher(await getLiveBus());
  } catch (error) {
    log.error("live bus unreachable: the recorder records without publishing live books", errorFields(error));
    return undefined;
  }
}

/** Closes the process's bus connection (shutdown, after its subscribers are closed). */
export async function closeLiveBus(): Promise<void> {
  const bus = globalStore.__brierLiveBus;
  globalStore.__brierLiveBus = undefined;
  await (await bus?.catch(() => undefined))?.close();
}
