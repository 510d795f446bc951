import "server-only";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db";
import { errorFields, log } from "@/lib/log";
import { ingestVenues } from "./ingest";

const globalStore = globalThis as typeof globalThis & { __brierCatalogSchedule?: { stop: () => void } };

/**
 * The in-process poller of self-hosted and embedded deployments: ingests every catalog venue now,
 * then CATALOG_POLL_SECONDS after each round ends (rounds never overlap in this process; the
 * per-venue lease keeps other processes out). 0 disables it. Started once per process.
 */
export function startCatalogSchedule(): { stop: () => void } {
  if (globalStore.__brierCatalogSchedule !== undefined) return globalStore.__brierCatalogSchedule;
  const seconds = config.catalog.pollSeconds;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const round = async () => {
    if (stopped) return;
    try {
      await ingestVenues(await getDb(), { trigger: "schedule" });
    } catch (error) {
      log.error("catalog schedule round failed", errorFields(error));
    }
    if (!stopped) timer = setTimeout(() => void round(), seconds * 1000);
  };
  const handle = {
    stop: () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      globalStore.__brierCatalogSchedule = undefined;
    },
  };
  if (seconds === 0) {
    log.info("catalog schedule disabled (CATALOG_POLL_SECONDS=0)");
    return handle;
  }
  globalStore.__brierCatalogSchedule = handle;
  log.info("catalog schedule started", { pollSeconds: seconds });
  timer = setTimeout(() => void round(), 0);
  return handle;
}
