import "server-only";
import type { Db } from "@/lib/db";
import { ingestVenues, type IngestHooks, type IngestOptions, type IngestRunSummary } from "@/lib/catalog/ingest";
import { recordPollPrices } from "@/lib/history/prices";
import { matchAfterIngest } from "@/lib/matching/engine";
import { queueOutcomeRejections } from "@/lib/matching/reviews";
import { getTickStores } from "@/lib/ticks";

/**
 * What every catalog poll is followed by, wherever it was started (the schedule, the cron route,
 * `admin ingest`): each venue's prices appended to the price history, then cross-venue matching
 * over what the poll added or changed, then the identities proven false by how the venues settled
 * them queued for review. Wired here so the catalog depends on neither.
 */
export const catalogFollowUps: IngestHooks = {
  afterUpsert: async (events, polledAtMs) => recordPollPrices(await getTickStores(), events, polledAtMs),
  afterIngest: async (db) => {
    const summary = await matchAfterIngest(db);
    // Identities whose two markets resolved differently (the outcomes audit) wait in the review queue as proposed rejections.
    await queueOutcomeRejections(db);
    return summary;
  },
};

/** Polls the catalog venues (lib/catalog/ingest.ts) with the follow-ups above. */
export function ingestCatalog(db: Db, options: Omit<IngestOptions, "hooks"> = {}): Promise<IngestRunSummary[]> {
  return ingestVenues(db, { ...options, hooks: catalogFollowUps });
}
