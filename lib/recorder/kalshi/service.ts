import "server-only";
import { readFileSync } from "node:fs";
import { catalogVenues } from "@/lib/catalog/venues";
import { config } from "@/lib/config";
import type { Db } from "@/lib/db";
import { errorFields, log } from "@/lib/log";
import { LivePublisher } from "@/lib/live/publisher";
import { getLiveBus } from "@/lib/live/connection";
import type { TickStores } from "@/lib/ticks";
import type { ResolutionSink } from "@/lib/outcomes/sink";
import { RecorderJournal } from "../journal";
import type { LifecycleSink } from "../rows";
import { lifecycleRecord, type KalshiLifecycleMessage } from "./outcomes";
import type { KalshiCredentials } from "./channel";
import { topKalshiTickers } from "./markets";
import { KalshiRecorder } from "./recorder";
import { processGlobals } from "@/lib/process-globals.mjs";

const globalStore = processGlobals<{ __brierKalshiRecorder?: KalshiRecorder }>();

/** Why the Kalshi recorder does not run, in words for /v0/status; undefined when it may. */
export function kalshiRecorderBlocker(): string | undefined {
  const settings = config.kalshiRecorder;
  if (!settings.enabled) return "disabled (KALSHI_RECORDER_ENABLED=false)";
  if (settings.keyId === undefined || settings.privateKey === undefined) {
    return "no Kalshi credentials: set KALSHI_API_KEY_ID and KALSHI_PRIVATE_KEY (or KALSHI_PRIVATE_KEY_PATH); Kalshi's order-book channel needs an API key";
  }
  return undefined;
}

/** The configured credentials; throws (with a message for the operator, never the key) when the key file cannot be read. */
function credentials(): KalshiCredentials | undefined {
  const { keyId, privateKey } = config.kalshiRecorder;
  if (keyId === undefined || privateKey === undefined) return undefined;
  if ("pem" in privateKey) return { keyId, privateKey: privateKey.pem };
  try {
    return { keyId, privateKey: readFileSync(privateKey.path, "utf8") };
  } catch {
    throw new Error(`KALSHI_PRIVATE_KEY_PATH (${privateKey.path}) cannot be read`);
  }
}

let startError: string | undefined;

/**
 * Starts the process's Kalshi recorder (once) when credentials are configured. Without them, or
 * when the key cannot be read, it records nothing and says why in /v0/status; it never throws.
 */
export async function startKalshiRecorder(
  stores: TickStores,
  db: Db,
  mode: "in-process" | "separate process" = "in-process",
  outcomes?: ResolutionSink,
): Promise<KalshiRecorder | undefined> {
  if (globalStore.__brierKalshiRecorder !== undefined) return globalStore.__brierKalshiRecorder;
  if (kalshiRecorderBlocker() !== undefined) return undefined;
  try {
    const creds = credentials();
    if (creds === undefined) return undefined;
    let live: LivePublisher | undefined;
    try {
      live = new LivePublisher(await getLiveBus(), "kalshi");
    } catch (error) {
      log.error("live bus unreachable: the Kalshi recorder records without publishing live books", errorFields(error));
    }
    if (globalStore.__brierKalshiRecorder !== undefined) return globalStore.__brierKalshiRecorder;
    const settings = config.kalshiRecorder;
    const recorder = new KalshiRecorder({
      writer: stores.writer,
      wsUrl: settings.wsUrl,
      credentials: creds,
      maxMarkets: settings.maxMarkets,
      tickers: () => topKalshiTickers(db, settings.maxMarkets),
      journal: new RecorderJournal(db, { mode, venue: "kalshi" }),
      ...(live !== undefined ? { live } : {}),
      ...(outcomes !== undefined ? { onLifecycle: lifecycleSink(outcomes) } : {}),
    });
    globalStore.__brierKalshiRecorder = recorder;
    startError = undefined;
    await recorder.start();
    return recorder;
  } catch (error) {
    startError = error instanceof Error ? error.message : "failed to start";
    log.error("kalshi recorder failed to start", errorFields(error));
    return undefined;
  }
}

/** The push half of Kalshi's outcome reader: each `market_lifecycle_v2` determination or settlement to `sink`. */
export function lifecycleSink(sink: ResolutionSink): LifecycleSink {
  return (messages, receivedMs) => {
    const receivedAt = new Date(receivedMs);
    const records = messages.flatMap((message) => lifecycleRecord(message as KalshiLifecycleMessage, receivedAt) ?? []);
    if (records.length > 0) sink.record(records).catch((error: unknown) => log.error("kalshi lifecycle not recorded", errorFields(error)));
  };
}

export async function stopKalshiRecorder(): Promise<void> {
  const recorder = globalStore.__brierKalshiRecorder;
  globalStore.__brierKalshiRecorder = undefined;
  await recorder?.stop();
}

/** The Kalshi section of GET /v0/status. */
export function kalshiRecorderStatus(): Record<string, unknown> {
  const recorder = globalStore.__brierKalshiRecorder;
  if (recorder !== undefined) {
    const status = recorder.status();
    const idle =
      status.subscribedMarkets > 0
        ? {}
        : {
            reason: catalogVenues().includes("kalshi")
              ? "No open Kalshi market in the catalog yet: the recorder follows the catalog's open Kalshi markets and subscribes at its next refresh (every 60 s)."
              : `No Kalshi market to follow: this deployment does not ingest Kalshi (CATALOG_VENUES=${catalogVenues().join(",")}).`,
          };
    return { venue: "kalshi", table: "kalshi_orderbook", mode: "in-process", ...status, ...idle };
  }
  const blocker = kalshiRecorderBlocker();
  const base = { venue: "kalshi", table: "kalshi_orderbook", running: false, subscribedAssets: 0 };
  if (blocker !== undefined) return { ...base, mode: "not recording", reason: blocker };
  if (startError !== undefined) return { ...base, mode: "not recording", reason: startError };
  if (!config.embeddedClickhouse) return { ...base, mode: "separate process (npm run recorder)" };
  return { ...base, mode: config.backgroundJobs ? "starting" : "disabled (BACKGROUND_JOBS=false)" };
}
