import "server-only";
import { kalshiVenue } from "./kalshi/venue";
import { recordedMarketIn, type RecordingRule } from "./locate";
import { polymarketVenue } from "./polymarket/venue";
import type { CatalogMarketRef, RecordedVenue, VenueStart } from "./venue";

export type { CatalogMarketRef, RecordedVenue, VenueGet, VenueStart } from "./venue";
export type { RecordingRule } from "./locate";

/**
 * The recorded venues: the one list that jobs (start, stop), status (a section each), history
 * (which table holds a market), spreads (fees, whose recorder) and the outcome readers read. Adding
 * a recorded venue is its folder (`lib/recorder/<venue>/venue.ts` describing it) and one line here
 * (docs/architecture.md, "Adding a recorded venue").
 */
const venues: RecordedVenue[] = [polymarketVenue, kalshiVenue];

let generation = 0;

/** Every recorded venue, in registration order. */
export function recordedVenues(): readonly RecordedVenue[] {
  return venues;
}

/** Changes each time the list changes: what a cache derived from the list compares (lib/spreads/fees.ts). */
export function registryGeneration(): number {
  return generation;
}

/**
 * Adds a venue to the list for the life of the process (a test's venue built from the same parts;
 * the real ones are the lines above). Returns the call that removes it again.
 */
export function registerRecordedVenue(venue: RecordedVenue): () => void {
  if (venues.some((known) => known.id === venue.id || known.table === venue.table || known.statusKey === venue.statusKey)) {
    throw new Error(`recorded venue ${venue.id} (table ${venue.table}, status ${venue.statusKey}) is already registered`);
  }
  venues.push(venue);
  generation += 1;
  return () => {
    const at = venues.indexOf(venue);
    if (at >= 0) venues.splice(at, 1);
    generation += 1;
  };
}

export function recordedVenue(id: string): RecordedVenue | undefined {
  return venues.find((venue) => venue.id === id);
}

export function isRecordedVenue(id: string): boolean {
  return recordedVenue(id) !== undefined;
}

/** The venue whose published table is `table`. */
export function venueOfTable(table: string): RecordedVenue | undefined {
  return venues.find((venue) => venue.table === table);
}

/**
 * Where a catalog market's rows are recorded (./locate.ts recordedMarketIn over the registered
 * venues), the one place that decides it: history, spreads, and the market page's charts through
 * recordingRules.
 */
export function recordedMarketOf(market: CatalogMarketRef): { venue: RecordedVenue; table: string; market: string } | undefined {
  return recordedMarketIn(venues, market);
}

/** The registered venues as the plain data recordedMarketIn reads: what a server page hands the market page's charts (a browser component). */
export function recordingRules(): RecordingRule[] {
  return venues.map(({ id, table, keyedBy, recordsUnlistedVenues }) => ({ id, table, keyedBy, ...(recordsUnlistedVenues === undefined ? {} : { recordsUnlistedVenues }) }));
}

/** The venue that records the markets of venues recording nothing themselves (see recordedMarketOf), the default table of a bare market key. */
export function unlistedVenue(): RecordedVenue | undefined {
  return venues.find((venue) => venue.recordsUnlistedVenues === true);
}

/** Starts the recorder of every venue this deployment records (its settings say so), each once: what jobs and `npm run recorder` run. */
export function startRecorders(context: VenueStart): Array<{ venue: RecordedVenue; started: Promise<void> }> {
  return venues.filter((venue) => venue.recorder.enabled()).map((venue) => ({ venue, started: venue.recorder.start(context) }));
}
