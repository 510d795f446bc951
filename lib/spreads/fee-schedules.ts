/**
 * The venues' published trading-fee schedules, as data (docs/spreads.md, "Fees"): each recorded
 * venue's own, kept in its folder (`lib/recorder/<venue>/fee-schedule.ts`, the types in
 * lib/recorder/fee-schedule.ts) and read here through the registry of recorded venues.
 */

import { recordedVenues } from "@/lib/recorder/registry";
import type { FeeScheduleVersion } from "@/lib/recorder/fee-schedule";

export type { FeeMatch, FeeRounding, FeeRule, FeeScheduleVersion } from "@/lib/recorder/fee-schedule";

/** Every recorded venue's schedule versions, in the registry's order. */
export function feeSchedules(): readonly FeeScheduleVersion[] {
  return recordedVenues().flatMap((venue) => venue.fees?.schedule ?? []);
}
