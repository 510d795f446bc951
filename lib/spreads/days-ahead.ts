import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db";
import { errorFields, log } from "@/lib/log";
import { processGlobals } from "@/lib/process-globals.mjs";
import { requestTickReader } from "@/lib/ticks";
import { isAppError } from "@/lib/errors";
import { CLOSED_AFTER_MS, spreadDays } from "./day-cache";
import { foldDaysAhead, foldPairDaysAhead } from "./service";

/** How often the latest pairs' closed days are folded ahead: a day is folded once it counts as closed. */
const EVERY_MS = CLOSED_AFTER_MS;

const globalStore = processGlobals<{ __brierSpreadDaysAhead?: { stop: () => void } }>();

/**
 * Folds the latest pairs' closed days ahead of the first pair page (service.ts `foldDaysAhead`),
 * soon after start (5 s: SPREAD_DAYS_AHEAD_AFTER_SECONDS) and every 15 minutes: the first 7-day view after a start otherwise replays
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
    await wait(config.spreadDaysAheadAfterMs);
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

/**
 * A pair's page opened: its closed days of the page's 7-day window folded ahead in the background
 * (service.ts `foldPairDaysAhead`, one day at a time), not awaited. The page opens on its 24 hours;
 * a switch to 7 days then finds its days folded or folding instead of folding all of them itself
 * (docs/spreads.md, "Folded ahead"). At most once per pair every 15 minutes (CLOSED_AFTER_MS: no day
 * closes in between); a pair that does not resolve (unmatched, not recorded) is left to the page's own calls.
 */
export function foldPairOnOpen(a: string, b: string): void {
  const now = Date.now();
  if (!spreadDays.askAhead(JSON.stringify([a, b]), now)) return;
  void (async () => foldPairDaysAhead(await getDb(), requestTickReader(), a, b, now))().catch((error: unknown) => {
    if (isAppError(error) && (error.code === "not_found" || error.code === "invalid_parameter")) return;
    log.error("closed days of a pair could not be folded ahead", errorFields(error));
  });
}
