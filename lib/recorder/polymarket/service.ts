import "server-only";
import { topOutcomeTokens } from "@/lib/catalog/assets";
import { config } from "@/lib/config";
import type { Db } from "@/lib/db";
import { livePublisher } from "@/lib/live/connection";
import type { TickStores } from "@/lib/ticks";
import { RecorderJournal } from "../journal";
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
export async function startRecorder(stores: TickStores, db: Db, mode: "in-process" | "separate process" = "in-process"): Promise<Recorder> {
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
  });
  globalStore.__brierRecorder = recorder;
  await recorder.start();
  return recorder;
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
