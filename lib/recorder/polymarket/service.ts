import "server-only";
import { topOutcomeTokens } from "@/lib/catalog/assets";
import { config } from "@/lib/config";
import type { Db } from "@/lib/db";
import { livePublisher } from "@/lib/live/connection";
import type { TickStores } from "@/lib/ticks";
import { getMarketOrThrow } from "@/lib/catalog/resolve";
import { errorFields, log } from "@/lib/log";
import type { ResolutionSink } from "@/lib/outcomes/sink";
import { RecorderJournal } from "../journal";
import type { LifecycleSink } from "../rows";
import { marketResolvedRecord, type MarketResolvedEvent } from "./outcomes";
import { Recorder, type AssetSource } from "./recorder";
import { processGlobals } from "@/lib/process-globals.mjs";

const globalStore = processGlobals<{ __brierRecorder?: Recorder }>();

/** The catalog's Polymarket outcome tokens, top markets by 24h volume first. */
export function catalogAssetSource(db: Db, limit: number): AssetSource {
  return async () => (await topOutcomeTokens(db, { exchange: "polymarket", limit })).map((token) => token.outcomeId);
}

/**
 * Starts the process's recorder (once) on the configured market channel and the catalog's top
 * tokens, publishing live books and trades to the live bus (in-process, or NATS with NATS_URL).
 */
export async function startRecorder(stores: TickStores, db: Db, mode: "in-process" | "separate process" = "in-process", outcomes?: ResolutionSink): Promise<Recorder> {
  if (globalStore.__brierRecorder !== undefined) return globalStore.__brierRecorder;
  const live = await livePublisher();
  if (globalStore.__brierRecorder !== undefined) return globalStore.__brierRecorder;
  const recorder = new Recorder({
    writer: stores.writer,
    wsUrl: config.recorder.wsUrl,
    maxAssets: config.recorder.maxAssets,
    assets: catalogAssetSource(db, config.recorder.maxAssets),
    journal: new RecorderJournal(db, { mode }),
    ...(live !== undefined ? { live } : {}),
    ...(outcomes !== undefined ? { onLifecycle: marketResolvedSink(db, outcomes) } : {}),
  });
  globalStore.__brierRecorder = recorder;
  await recorder.start();
  return recorder;
}

/**
 * The push half of Polymarket's outcome reader: each `market_resolved` event to `sink`, its Gamma
 * id looked up in the catalog (by condition id) when the event does not carry one.
 */
export function marketResolvedSink(db: Db, sink: ResolutionSink): LifecycleSink {
  return (messages, receivedMs) => {
    const receivedAt = new Date(receivedMs);
    void (async () => {
      const records = [];
      for (const message of messages) {
        const event = message as MarketResolvedEvent;
        const known = typeof event.id === "string" || typeof event.market !== "string" ? undefined : await getMarketOrThrow(db, event.market).then((m) => m.venueMarketId, () => undefined);
        const record = marketResolvedRecord(event, receivedAt, known);
        if (record !== undefined) records.push(record);
      }
      if (records.length > 0) await sink.record(records);
    })().catch((error: unknown) => log.error("market_resolved not recorded", errorFields(error)));
  };
}

export async function stopRecorder(): Promise<void> {
  const recorder = globalStore.__brierRecorder;
  globalStore.__brierRecorder = undefined;
  await recorder?.stop();
}

/** The recorder section of GET /v0/status. */
export function recorderStatus(): Record<string, unknown> {
  const recorder = globalStore.__brierRecorder;
  if (recorder !== undefined) return { mode: "in-process", ...recorder.status() };
  if (!config.recorder.enabled) return { mode: "disabled", running: false };
  if (!config.embeddedClickhouse) return { mode: "separate process (npm run recorder)", running: false };
  return { mode: config.backgroundJobs ? "starting" : "disabled (BACKGROUND_JOBS=false)", running: false };
}
