import "server-only";
import { withDeadline } from "@/lib/async";
import { config } from "@/lib/config";
import { errorFields, log } from "@/lib/log";
import { processGlobals } from "@/lib/process-globals.mjs";
import { getLiveBus } from "./connection";
import type { PriceSource } from "./price-source";

/**
 * Best Yes bid and ask of markets (matching's `includePrices=true`), from the freshest source there
 * is: the recorder's live book where Brier records the outcome, else the venue's own book (short
 * deadline, short cache), else nothing, with the reason. Nothing here throws: a venue that errs or
 * is slow costs its two prices, never the request. The venue's book comes through `VenueBooks`,
 * given by the caller (lib/passthrough/venue-books.ts: the pass-through's shared instances), so the
 * live layer calls no venue itself.
 */


/** The venue side of book prices. */
export interface VenueBooks {
  /** Whether Brier records this venue's books (its live book is then asked first). */
  recorded(venue: string): boolean;
  /** The venue's own order book of an outcome. */
  fetch(venue: string, outcomeId: string): Promise<{ bids?: readonly unknown[]; asks?: readonly unknown[] }>;
  /** A venue whose client signs even its book reads needs the caller's credentials, which this read never has. */
  needsCredentials(error: unknown): boolean;
  /**
   * The venue's client built, before the request's clock starts: building it loads the venue's
   * module at its first use (lib/venues/pmxt.ts), which is the process's cost, not the venue's
   * slowness, so it is not spent from the books' budget. Rejects for a venue that cannot be built.
   */
  ready(venue: string): Promise<void>;
}

/** The book prices of markets by catalog id (every market answered). */
export type BookPriceReader = (rows: ReadonlyArray<{ id: string; venue: string; outcomes: ReadonlyArray<{ outcomeId: string }> }>) => Promise<Map<string, BookPrices>>;

export interface BookPrices {
  bestBid: number | null;
  bestAsk: number | null;
  priceSource: PriceSource;
}

/** How long a venue book (or a venue failure) is reused: a matches page reloaded soon asks the venue once. */
const CACHE_MS = 5_000;
const CACHE_MAX = 5_000;
/**
 * One request's venue books share this budget; what is not back by then is `venue_timeout`. Under
 * the pass-through's own venue deadline, so a slow venue reads as slow, not as an error.
 */
const deadlineMs = () => Math.min(2_000, Math.floor(config.venueTimeoutMs * 0.8));
/** Venue books one request fetches at once (a page of 500 pairs must not open 1,000 venue calls). */
const CONCURRENCY = 8;

const globalStore = processGlobals<{ __brierBookPriceCache?: Map<string, { at: number; prices: BookPrices }> }>();
const cache = (globalStore.__brierBookPriceCache ??= new Map());

interface Level {
  price: number;
}

const top = (levels: readonly unknown[] | undefined, highest: boolean): number | null => {
  let best: number | null = null;
  for (const level of levels ?? []) {
    const price = (level as Partial<Level> | null)?.price;
    if (typeof price !== "number" || !Number.isFinite(price)) continue;
    if (best === null || (highest ? price > best : price < best)) best = price;
  }
  return best;
};

/** The recorder's live book of a recorded outcome; undefined when it is not recorded or has no in-sync book yet. */
async function fromRecorder(venues: VenueBooks, venue: string, outcomeId: string): Promise<BookPrices | undefined> {
  if (!venues.recorded(venue)) return undefined;
  try {
    const bus = await getLiveBus();
    const reply = await withDeadline(bus.requestSnapshot(venue, outcomeId), deadlineMs(), () => new Error("live snapshot timed out"));
    const book = reply?.book;
    if (book === null || book === undefined || !book.inSync) return undefined;
    return { bestBid: top(book.bids.map(([price]) => ({ price })), true), bestAsk: top(book.asks.map(([price]) => ({ price })), false), priceSource: "recorder" };
  } catch (error) {
    log.warn("live book unavailable for includePrices", errorFields(error));
    return undefined;
  }
}

async function fromVenue(venues: VenueBooks, venue: string, outcomeId: string, deadline: number): Promise<BookPrices> {
  const key = `${venue}\u0000${outcomeId}`;
  const hit = cache.get(key);
  if (hit !== undefined && Date.now() - hit.at < CACHE_MS) return hit.prices;
  const remaining = deadline - Date.now();
  // The request's budget is spent: no venue call is started only to be abandoned.
  if (remaining <= 0) return { bestBid: null, bestAsk: null, priceSource: "venue_timeout" };
  let prices: BookPrices;
  try {
    const book = await withDeadline(venues.fetch(venue, outcomeId), remaining, () => new BookTimeout());
    prices = { bestBid: top(book.bids, true), bestAsk: top(book.asks, false), priceSource: "venue" };
  } catch (error) {
    prices = { bestBid: null, bestAsk: null, priceSource: failureSource(venues, error) };
    if (prices.priceSource === "venue_error") log.warn("venue book unavailable for includePrices", { venue, ...errorFields(error) });
  }
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(key, { at: Date.now(), prices });
  return prices;
}

class BookTimeout extends Error {}

/** Why a venue book could not be read. */
function failureSource(venues: VenueBooks, error: unknown): PriceSource {
  if (error instanceof BookTimeout) return "venue_timeout";
  if (venues.needsCredentials(error)) return "venue_needs_credentials";
  return "venue_error";
}

/** Best Yes bid/ask of each market (by catalog id), every market answered. */
export async function bookPrices(
  venues: VenueBooks,
  rows: ReadonlyArray<{ id: string; venue: string; outcomes: ReadonlyArray<{ outcomeId: string }> }>,
): Promise<Map<string, BookPrices>> {
  const out = new Map<string, BookPrices>();
  const unique = [...new Map(rows.map((row) => [row.id, row])).values()];
  // A venue that cannot be built is answered below, by its fetch (venue_error).
  await Promise.all([...new Set(unique.map((row) => row.venue))].map((venue) => venues.ready(venue).catch(() => undefined)));
  const deadline = Date.now() + deadlineMs();
  let next = 0;
  const worker = async () => {
    while (next < unique.length) {
      const row = unique[next];
      next += 1;
      if (row === undefined) continue;
      const outcomeId = row.outcomes[0]?.outcomeId;
      if (outcomeId === undefined || outcomeId === "") {
        out.set(row.id, { bestBid: null, bestAsk: null, priceSource: "no_outcome" });
        continue;
      }
      out.set(row.id, (await fromRecorder(venues, row.venue, outcomeId)) ?? (await fromVenue(venues, row.venue, outcomeId, deadline)));
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, unique.length) }, worker));
  return out;
}

/** Forgets every cached venue book (tests, and an operator who wants the next read fresh). */
export function clearBookPriceCache(): void {
  cache.clear();
}
