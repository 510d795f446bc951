import "server-only";
import { marketOfOutcome, marketsKnownBy } from "@/lib/catalog/market-reads";
import type { Db } from "@/lib/db";
import { AppError, NotFoundError } from "@/lib/errors";
import { recordedMarketOf, recordedVenues } from "@/lib/recorder/registry";

/** An outcome of the catalog with what the tick table knows it by. */
export interface RecordedOutcome {
  outcomeId: string;
  label: string;
  marketId: string;
  venue: string;
  /** The tick table's `market`: the Polymarket condition id, the Kalshi market ticker. */
  conditionId: string;
  /** The published table holding the outcome's rows. */
  table: string;
}

/** What a tick query reads: a table and one market of it (a RecordedOutcome is one). */
export interface TickSource {
  table: string;
  conditionId: string;
}

/** The outcome's table and market key (lib/recorder/registry.ts recordedMarketOf decides both). */
export function tickSourceOf(row: { venue: string; venueMarketId: string; contractAddress: string | null }): TickSource | undefined {
  const recorded = recordedMarketOf(row);
  return recorded === undefined ? undefined : { table: recorded.table, conditionId: recorded.market };
}

/**
 * The catalog market of an outcome id, for the tick table's `market` filter (its primary key):
 * every history query is about one market, as every /v0/sql query is.
 */
export async function recordedOutcomeOrThrow(db: Db, outcomeId: string): Promise<RecordedOutcome> {
  const row = await marketOfOutcome(db, outcomeId);
  if (row === undefined) throw new NotFoundError("outcome", outcomeId);
  const source = tickSourceOf(row);
  if (source === undefined) {
    throw new AppError("not_found", `Outcome '${outcomeId}' is on ${row.venue}, whose order books are not recorded.`, { resource: "order book" });
  }
  const label = row.outcomes.find((outcome) => outcome.outcomeId === outcomeId)?.label ?? outcomeId;
  return { outcomeId, label, marketId: row.id, venue: row.venue, ...source };
}

/** The recorded venues whose tick-table `market` is the catalog's venue market id (Kalshi's ticker), not the contract address. */
function keyedByVenueMarketId(): string[] {
  return recordedVenues()
    .filter((venue) => venue.keyedBy === "venueMarketId")
    .map((venue) => venue.id);
}

/** The outcomes of a market by its tick-table `market` (condition id, or Kalshi ticker): coverage of a whole market. */
export async function outcomesOfCondition(db: Db, conditionId: string): Promise<RecordedOutcome[]> {
  const rows = await marketsKnownBy(db, conditionId, keyedByVenueMarketId());
  return rows.flatMap((row) => {
    const source = tickSourceOf(row);
    if (source === undefined) return [];
    return row.outcomes.map((outcome) => ({ outcomeId: outcome.outcomeId, label: outcome.label, marketId: row.id, venue: row.venue, ...source }));
  });
}
