import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { marketFees, type StoredFeeVersion } from "@/lib/db/schema/market-fees";
import { recordedVenue, recordedVenues, type VenueGet } from "@/lib/recorder/registry";
import type { MarketFeeVersion } from "./fees";

/**
 * Each market's own fee, kept dated (docs/spreads.md, "Fees"): read from the venue's fields by the
 * venue's reader (lib/recorder/<venue>/fees.ts), stored in `market_fees` with every version and
 * the instant it took effect, and re-read at most every REFRESH_MS. A market whose fields cannot
 * be read (the venue unreachable, a field missing, a synthetic demo market no venue lists) keeps
 * the versions of an earlier read, or none: the schedule table's fallback then prices it.
 */

export const REFRESH_MS = 6 * 3_600_000;

/** The venues' REST GETs the readers go through (lib/recorder/<venue>/rest.ts clients), under each venue's `fees.reader` key; a venue without one is not read. */
export type FeeReaders = Partial<Record<string, VenueGet>>;

/** A fee read waits at most this long per request: a pair's answer never hangs on a slow venue (the table prices it meanwhile). */
const READ_TIMEOUT_MS = 5_000;

/** The readers of this process: the venues' REST clients (lib/recorder/<venue>/rest.ts, the offline redirect applied). */
export function defaultFeeReaders(): FeeReaders {
  return Object.fromEntries(recordedVenues().flatMap((venue) => (venue.fees?.market === undefined ? [] : [[venue.fees.market.reader, venue.fees.market.defaultReader(READ_TIMEOUT_MS)]])));
}

export interface FeeMarket {
  venue: string;
  venueMarketId: string;
  /** Polymarket's condition id (the catalog's contract address). */
  contractAddress: string | null;
  /** A synthetic demo market exists on no venue: never read. */
  synthetic: boolean;
}

async function readVersions(market: FeeMarket, readers: FeeReaders, now: number): Promise<StoredFeeVersion[] | undefined> {
  const fees = recordedVenue(market.venue)?.fees?.market;
  const get = fees === undefined ? undefined : readers[fees.reader];
  return fees === undefined || get === undefined ? undefined : fees.read(get, market, now);
}

/**
 * The market's own fee versions: the stored ones, read again from the venue when older than
 * REFRESH_MS (or never read). Never throws for the venue: a failed read is stored as `error` and
 * the earlier versions (or none) are answered.
 */
export async function marketFeeVersions(db: Db, market: FeeMarket, readers: FeeReaders, now: number): Promise<MarketFeeVersion[]> {
  const key = and(eq(marketFees.venue, market.venue), eq(marketFees.venueMarketId, market.venueMarketId));
  const [stored] = await db.select().from(marketFees).where(key).limit(1);
  if (market.synthetic || (stored !== undefined && now - stored.readAt.getTime() < REFRESH_MS)) return stored?.versions ?? [];
  let versions: StoredFeeVersion[] | undefined;
  let error: string | null = null;
  try {
    versions = await readVersions(market, readers, now);
    if (versions === undefined) return stored?.versions ?? [];
  } catch (cause) {
    error = (cause instanceof Error ? cause.message : String(cause)).slice(0, 500);
  }
  const row = { venue: market.venue, venueMarketId: market.venueMarketId, versions: versions ?? stored?.versions ?? [], readAt: new Date(now), error };
  await db
    .insert(marketFees)
    .values(row)
    .onConflictDoUpdate({ target: [marketFees.venue, marketFees.venueMarketId], set: { versions: row.versions, readAt: row.readAt, error: row.error } });
  return row.versions;
}

/** What was read of a market's fee (GET /v0/fees?market=): its versions, when, and why the last read failed. */
export async function storedMarketFees(db: Db, venue: string, venueMarketId: string) {
  const [stored] = await db
    .select()
    .from(marketFees)
    .where(and(eq(marketFees.venue, venue), eq(marketFees.venueMarketId, venueMarketId)))
    .limit(1);
  return stored;
}
