import "server-only";
import { ExchangeNotAvailable, NetworkError } from "pmxt-core/dist/errors";
import { lastFinishedPoll } from "@/lib/catalog/status";
import type { Db } from "@/lib/db";

/**
 * The venues' public market data: reads any caller may make without a venue account. pmxt-core
 * sends some of them only with credentials (Kalshi's order book goes through its signed API), so
 * without any it throws an AuthenticationError before a byte leaves the machine: the caller did
 * nothing wrong, and a 401 would tell them to fix their key.
 */
const marketDataReads = new Set(["fetchMarkets", "fetchEvents", "fetchMarket", "fetchEvent", "fetchOrderBook", "fetchOrderBooks", "fetchTrades", "fetchOHLCV"]);

function isAuthenticationError(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "AUTHENTICATION_ERROR";
}

/**
 * What a market-data read that failed for want of venue credentials answers instead (README,
 * "Errors"; never a 401 for a read): 503 naming the venue and the reason. When the venue's last
 * catalog poll on this server failed (no network, the venue down), that is the reason given, with
 * its error; otherwise the read needs a venue key this server does not hold. Undefined: not such a
 * failure, map it as usual.
 */
export async function readWithoutNetwork(db: Db, venue: string, method: string, credentials: unknown, error: unknown): Promise<Error | undefined> {
  if (!isAuthenticationError(error) || credentials !== undefined || !marketDataReads.has(method)) return undefined;
  const last = await lastFinishedPoll(db, venue);
  if (last?.outcome === "failed") {
    const when = last.finishedAt === null ? "" : ` at ${last.finishedAt.toISOString()}`;
    return new NetworkError(`${venue} is unreachable from this server (its last catalog poll${when} failed: ${last.error ?? "no answer"}), so ${method} cannot be read now. It is a public read: no key of yours is wrong.`, venue);
  }
  return new ExchangeNotAvailable(`${venue} answers ${method} to this server only with a ${venue} API key, which this server does not hold. It is a public read: no key of yours is wrong.`, venue);
}
