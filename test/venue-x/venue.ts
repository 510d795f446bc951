import { RecorderJournal } from "@/lib/recorder/journal";
import type { FeeScheduleVersion } from "@/lib/recorder/fee-schedule";
import type { RecordedVenue } from "@/lib/recorder/venue";
import { bookTableStatements } from "@/lib/ticks/book-table";
import { VenueXRecorder } from "./recorder";

/**
 * Venue X: a third recorded venue that exists only for tests (test/venue-registry.test.ts), built
 * from the same parts as the real ones and described the same way (lib/recorder/<venue>/venue.ts):
 * its table, its channel and normalizer (a loopback fake speaks its wire), its fee schedule, its
 * status section. The test registers it with lib/recorder/registry.ts registerRecordedVenue.
 */
export const VENUE_X = "venuex";

export const venueXFeeSchedule: readonly FeeScheduleVersion[] = [
  {
    venue: VENUE_X,
    id: "venuex-flat",
    effectiveFrom: "2020-01-01T00:00:00Z",
    source: "venue X's test schedule (a flat taker rate)",
    rounding: { decimals: 4, mode: "up", per: "fill" },
    maker: "0",
    rules: [{ match: {}, rule: { takerRate: "0.02", exponent: 1, basis: "schedule", note: "Venue X charges takers 0.02 × C × P × (1 − P)." } }],
  },
];

/** Where the recorder listens and what it follows: set by the test before the venue starts. */
export interface VenueXSettings {
  wsUrl: string;
  markets: readonly string[];
}

export function venueX(settings: VenueXSettings): RecordedVenue & { running: () => VenueXRecorder | undefined } {
  let recorder: VenueXRecorder | undefined;
  const table = "venuex_orderbook";
  return {
    id: VENUE_X,
    label: "Venue X",
    table,
    statusKey: "venueXRecorder",
    keyedBy: "venueMarketId",
    running: () => recorder,
    recorder: {
      enabled: () => true,
      start: async ({ stores, db, mode }) => {
        if (recorder !== undefined) return;
        for (const query of bookTableStatements(table, "venue X market id")) await stores.writer.command({ query });
        recorder = new VenueXRecorder({ writer: stores.writer, table, wsUrl: settings.wsUrl, markets: settings.markets, journal: new RecorderJournal(db, { mode, venue: VENUE_X, heartbeatMs: 50 }) });
        await recorder.start();
      },
      stop: async () => {
        await recorder?.stop();
        recorder = undefined;
      },
      status: async () => ({ venue: VENUE_X, table, ...(recorder?.status() ?? { running: false, subscribedAssets: 0 }) }),
      report: () => recorder?.status() ?? {},
    },
    fees: { schedule: venueXFeeSchedule },
  };
}
