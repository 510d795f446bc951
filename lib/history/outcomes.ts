import "server-only";
import { arrayContains, eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { markets } from "@/lib/db/schema";
import { AppError, NotFoundError } from "@/lib/errors";

/** An outcome of the catalog with what the tick table knows it by. */
export interface RecordedOutcome {
  outcomeId: string;
  label: string;
  marketId: string;
  venue: string;
  /** The tick table's `market` (Polymarket condition id). */
  conditionId: string;
}

/**
 * The catalog market of an outcome id, for the tick table's `market` filter (its primary key):
 * every history query is about one market, as every /v0/sql query is.
 */
export async function recordedOutcomeOrThrow(db: Db, outcomeId: string): Promise<RecordedOutcome> {
  const [row] = await db
    .select({ id: markets.id, venue: markets.venue, contractAddress: markets.contractAddress, outcomes: markets.outcomes })
    .from(markets)
    .where(arrayContains(markets.outcomeIds, [outcomeId]))
    .limit(1);
  if (row === undefined) throw new NotFoundError("outcome", outcomeId);
  if (row.contractAddress === null) {
    throw new AppError("not_found", `Outcome '${outcomeId}' is on ${row.venue}, whose order books are not recorded.`, { resource: "order book" });
  }
  const label = row.outcomes.find((outcome) => outcome.outcomeId === outcomeId)?.label ?? outcomeId;
  return { outcomeId, label, marketId: row.id, venue: row.venue, conditionId: row.contractAddress };
}

/** The outcome ids of a market by its condition id (coverage of a whole market). */
export async function outcomesOfCondition(db: Db, conditionId: string): Promise<RecordedOutcome[]> {
  const rows = await db
    .select({ id: markets.id, venue: markets.venue, outcomes: markets.outcomes })
    .from(markets)
    .where(eq(markets.contractAddress, conditionId));
  return rows.flatMap((row) =>
    row.outcomes.map((outcome) => ({ outcomeId: outcome.outcomeId, label: outcome.label, marketId: row.id, venue: row.venue, conditionId })),
  );
}
