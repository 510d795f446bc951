import { isExchangeKey } from "@/lib/venues/registry";
import { StreamProtocolError } from "./accounting";

/* The arguments of a stream subscription (pmxt's watch methods, and Brier's firehose), read once. */

/** The key of an asset's bus topic: the same id could be listed by two venues. */
export const topicKey = (venue: string, symbol: string) => `${venue}\u0000${symbol}`;
export const LIVE_METHODS = new Set(["watchOrderBook", "watchOrderBooks", "watchTrades"]);
/** pmxt's unsubscribe names for a watch method. */
export const UNWATCH: Record<string, string> = { unwatchOrderBook: "watchOrderBook", unwatchAddress: "watchAddress" };

/** The firehose's one optional argument: the venues to keep. */
export function parseVenues(args: unknown[]): Set<string> | undefined {
  if (args.length === 0 || args[0] === undefined || args[0] === null) return undefined;
  const venues = args[0];
  if (args.length > 1 || !Array.isArray(venues) || venues.some((venue) => typeof venue !== "string" || !isExchangeKey(venue.toLowerCase()))) {
    throw new StreamProtocolError("VALIDATION_ERROR", "firehose takes one optional argument: a list of exchange names, e.g. [[\"polymarket\"]].");
  }
  return new Set(venues.map((venue) => String(venue).toLowerCase()));
}

/** The outcome ids a watch method names. */
export function symbolsOf(method: string, args: unknown[]): string[] {
  const first = args[0];
  if (method === "watchOrderBooks") {
    if (!Array.isArray(first) || first.length === 0 || first.some((id) => typeof id !== "string" || id === "")) {
      throw new StreamProtocolError("VALIDATION_ERROR", "watchOrderBooks takes a non-empty list of outcome ids as its first argument.");
    }
    return [...new Set(first as string[])];
  }
  return typeof first === "string" && first !== "" ? [first] : [];
}

/** The depth limit of a book watch (its second argument). */
export function bookLimit(method: string, args: unknown[]): number | undefined {
  if (method !== "watchOrderBook" && method !== "watchOrderBooks") return undefined;
  const limit = args[1];
  return typeof limit === "number" && Number.isInteger(limit) && limit > 0 ? limit : undefined;
}

/** Brier's pair-spread stream (docs/spreads.md, "Live"): `watchSpread` with args `[a, b, size?]`, on exchange `brier`. */
export const SPREAD_METHOD = "watchSpread";

/** The two sides (any market or outcome id /v0/pairs/{a}/{b} accepts) and the size (contracts, default 100). */
export function parseSpreadArgs(args: unknown[]): { a: string; b: string; size: number } {
  const [a, b, size] = args;
  const ref = (value: unknown) => typeof value === "string" && value !== "" && value.length <= 600 && !/[\s/]/.test(value);
  const sized = size === undefined || size === null || (typeof size === "number" && Number.isFinite(size) && size >= 0.01 && size <= 100_000);
  if (args.length > 3 || !ref(a) || !ref(b) || !sized) {
    throw new StreamProtocolError("VALIDATION_ERROR", "watchSpread takes [a, b, size?]: two market or outcome ids and a size in contracts (0.01 to 100,000, default 100).");
  }
  return { a: String(a), b: String(b), size: typeof size === "number" ? size : 100 };
}
