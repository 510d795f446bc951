import "server-only";
import type { Db } from "@/lib/db";
import { ingestVenues, type IngestHooks, type IngestOptions, type IngestRunSummary } from "@/lib/catalog/ingest";
import { recordPollPrices } from "@/lib/history/prices";
import { errorFields, log } from "@/lib/log";
import { matchAfterIngest } from "@/lib/matching/engine";
import { queueOutcomeRejections } from "@/lib/matching/reviews";
import { settlementSweepDue, storeSettlementFields } from "@/lib/matching/settlement-fields";
import { recordedVenues } from "@/lib/recorder/registry";
import { getTickStores } from "@/lib/ticks";

/** How often a venue's settlement fields are swept again (strikes and sources rarely change; a sweep pages every open event). */
const SETTLEMENT_SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * The settlement terms the polled venues state as fields (strikes, secondary rules, named sources),
 * swept by each venue's reader (lib/recorder/<venue>/settlement.ts) and kept for matching, which
 * reads them before the rules' text: at the first poll, then at most once an hour. A venue whose sweep fails keeps what an earlier sweep stored; the failure is logged and
 * matching runs on.
 */
export async function readSettlementFields(db: Db, venues: readonly string[], options: { redirectUrl?: string; now?: Date } = {}): Promise<void> {
  const now = options.now ?? new Date();
  for (const venue of recordedVenues()) {
    if (venue.settlement === undefined || !venues.includes(venue.id)) continue;
    if (!(await settlementSweepDue(db, venue.id, now, SETTLEMENT_SWEEP_EVERY_MS))) continue;
    try {
      const rows = await venue.settlement.reader(options.redirectUrl === undefined ? {} : { redirectUrl: options.redirectUrl })();
      const written = await storeSettlementFields(db, venue.id, rows, now);
      log.info("settlement fields read", { venue: venue.id, read: rows.length, written });
    } catch (err) {
      log.warn("settlement fields not read", { venue: venue.id, ...errorFields(err) });
    }
  }
}

/**
 * What every catalog poll is followed by, wherever it was started (the schedule, the cron route,
 * `admin ingest`): each venue's prices appended to the price history, then the settlement fields of
 * the venues polled, then cross-venue matching over what the poll added or changed, then the
 * identities proven false by how the venues settled them queued for review. Wired here so the
 * catalog depends on neither. `settlement: false` leaves the settlement fields unread (a poll of
 * substituted exchanges, whose fields no venue host would have); `redirectUrl` sends the sweeps to
 * another host (a bench's loopback fake).
 */
export function followUpsWith(options: { settlement?: false | { redirectUrl?: string } } = {}): IngestHooks {
  const settlement = options.settlement;
  return {
    afterUpsert: async (events, polledAtMs) => recordPollPrices(await getTickStores(), events, polledAtMs),
    afterIngest: async (db, runs) => {
      if (settlement !== false) await readSettlementFields(db, runs.filter((r) => r.outcome === "succeeded").map((r) => r.venue), settlement ?? {});
      const summary = await matchAfterIngest(db);
      // Identities whose two markets resolved differently (the outcomes audit) wait in the review queue as proposed rejections.
      await queueOutcomeRejections(db);
      return summary;
    },
  };
}

/** The follow-ups of a poll of the real venues. */
export const catalogFollowUps: IngestHooks = followUpsWith();

/**
 * Polls the catalog venues (lib/catalog/ingest.ts) with the follow-ups above. A caller that
 * substitutes the exchanges (`exchangeFor`) says where their settlement fields are read
 * (`settlementRedirectUrl`), or they are not read.
 */
export function ingestCatalog(db: Db, options: Omit<IngestOptions, "hooks"> & { settlementRedirectUrl?: string } = {}): Promise<IngestRunSummary[]> {
  const { settlementRedirectUrl, ...ingest } = options;
  const settlement = settlementRedirectUrl !== undefined ? { redirectUrl: settlementRedirectUrl } : ingest.exchangeFor === undefined ? {} : false;
  return ingestVenues(db, { ...ingest, hooks: followUpsWith({ settlement }) });
}
