import "server-only";
import { errorFields, log } from "@/lib/log";
import type { ResolutionSink } from "@/lib/outcomes/sink";
import { recordedVenues } from "./registry";
import { VenueRestError } from "./rest";
import type { OutcomeSweep } from "./venue";

/** Between two incremental sweeps. */
export const OUTCOME_SWEEP_INTERVAL_MS = 10 * 60_000;

/**
 * How far back an incremental sweep reads closed markets: a week, so a market still proposed,
 * disputed or determined (UMA's challenge period, Kalshi's settlement timer and disputes) is read
 * again until it settles.
 */
export const OUTCOME_LOOKBACK_MS = 7 * 24 * 3_600_000;

export interface OutcomeReaders {
  /** The first sweep of every venue (all closed markets, Kalshi's historical ones too). */
  firstSweep: Promise<void>;
  stop: () => void;
}

/**
 * The REST half of the recorded venues' outcome readers (lib/recorder/registry.ts) (the push half rides on the recorders'
 * channels): a sweep of every closed market at start, then every OUTCOME_SWEEP_INTERVAL_MS an
 * incremental sweep of what closed within OUTCOME_LOOKBACK_MS. A venue that cannot be reached is
 * logged once per failure streak (the offline demo has none reachable).
 */
export function startOutcomeReaders(sink: ResolutionSink, sweeps: ReadonlyMap<string, OutcomeSweep> = venueSweeps()): OutcomeReaders {
  const record = (records: Parameters<ResolutionSink["record"]>[0]) => sink.record(records);
  const failing = new Set<string>();
  const run = async (venue: string, sweep: () => Promise<number>) => {
    try {
      const read = await sweep();
      if (failing.delete(venue)) log.info("outcome sweep reaches the venue again", { venue });
      log.debug("outcome sweep done", { venue, markets: read });
    } catch (error) {
      // Unreachable (offline, the demo) is the catalog poll's warning to give; anything else is worth one.
      const unreachable = error instanceof VenueRestError && (error.status === "network" || error.status === "timeout");
      if (!failing.has(venue)) (unreachable ? log.info : log.warn)("outcome sweep failed; retried at the next sweep", { venue, ...errorFields(error) });
      failing.add(venue);
    }
  };
  let stopped = false;
  const firstSweep = Promise.all([...sweeps].map(([venue, sweep]) => run(venue, () => sweep(record, undefined)))).then(() => undefined);
  const timer = setInterval(() => {
    if (stopped) return;
    const since = new Date(Date.now() - OUTCOME_LOOKBACK_MS);
    for (const [venue, sweep] of sweeps) void run(venue, () => sweep(record, since));
  }, OUTCOME_SWEEP_INTERVAL_MS);
  timer.unref();
  return {
    firstSweep,
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}

/** The process's sweep of each recorded venue that reads outcomes, by venue id. */
export function venueSweeps(): Map<string, OutcomeSweep> {
  return new Map(recordedVenues().flatMap((venue) => (venue.outcomes === undefined ? [] : [[venue.id, venue.outcomes.reader()] as const])));
}
