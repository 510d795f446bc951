import "server-only";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db";
import { errorFields, log } from "@/lib/log";
import { ingestCatalog } from "./catalog";
import { catalogVenues } from "@/lib/catalog/venues";
import { processGlobals } from "@/lib/process-globals.mjs";

interface CatalogSchedule {
  stop: () => void;
  /** Settles when no poll is running (a poll started before `stop` runs to its end, follow-ups included). */
  idle: () => Promise<void>;
  /** Settles when every venue's first poll (with its follow-ups) has ended, succeeded or not. */
  firstRound: Promise<void>;
}

const globalStore = processGlobals<{ __brierCatalogSchedule?: CatalogSchedule }>();

/**
 * The in-process poller of self-hosted and embedded deployments. Each catalog venue has its own
 * loop: poll now, then CATALOG_POLL_SECONDS after its previous poll ended, so a venue that hangs
 * until its timeouts never delays the others' next poll. Polls of one venue never overlap here,
 * and the per-venue lease keeps other processes out. 0 disables it. Started once per process.
 */
export function startCatalogSchedule(): CatalogSchedule {
  if (globalStore.__brierCatalogSchedule !== undefined) return globalStore.__brierCatalogSchedule;
  const seconds = config.catalog.pollSeconds;
  let stopped = false;
  const timers = new Map<string, NodeJS.Timeout>();
  const firstPolls = new Map<string, () => void>();
  const running = new Set<Promise<void>>();
  const ingest = async (venue: string) => {
    try {
      await ingestCatalog(await getDb(), { venues: [venue], trigger: "schedule" });
    } catch (error) {
      log.error("catalog schedule poll failed", { venue, ...errorFields(error) });
    }
  };
  const poll = async (venue: string) => {
    if (stopped) return;
    const polling = ingest(venue);
    running.add(polling);
    await polling;
    running.delete(polling);
    firstPolls.get(venue)?.();
    firstPolls.delete(venue);
    if (!stopped) timers.set(venue, setTimeout(() => void poll(venue), seconds * 1000));
  };
  const venues = seconds === 0 ? [] : catalogVenues();
  const firstRound = Promise.all(venues.map((venue) => new Promise<void>((resolve) => firstPolls.set(venue, resolve)))).then(() => undefined);
  const handle: CatalogSchedule = {
    firstRound,
    stop: () => {
      stopped = true;
      for (const timer of timers.values()) clearTimeout(timer);
      for (const resolve of firstPolls.values()) resolve();
      globalStore.__brierCatalogSchedule = undefined;
    },
    idle: async () => {
      await Promise.all(running);
    },
  };
  if (seconds === 0) {
    log.info("catalog schedule disabled (CATALOG_POLL_SECONDS=0)");
    return handle;
  }
  globalStore.__brierCatalogSchedule = handle;
  log.info("catalog schedule started", { pollSeconds: seconds, venues: venues.join(",") });
  for (const venue of venues) timers.set(venue, setTimeout(() => void poll(venue), 0));
  return handle;
}
