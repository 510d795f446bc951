import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import { getDb } from "@/lib/db";
import { errorFields, log } from "@/lib/log";
import { processGlobals } from "@/lib/process-globals.mjs";
import { requestTickReader } from "@/lib/ticks";
import { CLOSED_AFTER_MS } from "./day-cache";
import { foldDaysAhead } from "./service";

/** How often the latest pairs' closed days are folded ahead: a day is folded once it counts as closed. */
const EVERY_MS = CLOSED_AFTER_MS;
/** The first fold after start. */
const FIRST_RUN_MS = 5_000;

const globalStore = processGlobals<{ __brierSpreadDaysAhead?: { stop: () => void } }>();

/**
 * Folds the latest pairs' closed days ahead of the first pair page (service.ts `foldDaysAhead`),
 * soon after start and every 15 minutes: the first 7-day view after a start otherwise replays
 * every closed day of its window (docs/spreads.md, "Closed days"). Started once per process.
 */
export function startSpreadDaysAhead(): { stop: () => void } {
  const started = globalStore.__brierSpreadDaysAhead;
  if (started !== undefined) return started;
  const stopping = new AbortController();
  const handle = {
    stop: () => {
      stopping.abort();
      globalStore.__brierSpreadDaysAhead = undefined;
    },
  };
  globalStore.__brierSpreadDaysAhead = handle;
  const wait = (ms: number) => sleep(ms, undefined, { signal: stopping.signal, ref: false });
  void (async () => {
    await wait(FIRST_RUN_MS);
    for (;;) {
      const started = Date.now();
      log.info("folding closed days of pairs ahead");
      await foldDaysAhead(await getDb(), requestTickReader(), started).then(
        (pairs) => log.info("closed days of pairs folded ahead", { pairs: pairs.length, ms: Date.now() - started }),
        (error: unknown) => log.error("closed days of pairs could not be folded ahead", errorFields(error)),
      );
      await wait(EVERY_MS);
    }
  })().catch(() => undefined); // stopped: the wait was aborted
  return handle;
}
