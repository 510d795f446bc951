import { config } from "@/lib/config";
import { buildableExchanges } from "@/lib/venues/factory";

/**
 * The seven venues whose public catalog pmxt-core 2.41 reads without credentials. Baozi is the
 * seventh: its fetchEvents reads Solana program accounts over public JSON-RPC, while Metaculus,
 * Smarkets, Polymarket US, Hyperliquid and Gemini Titan need an account or token to list.
 */
export const publicCatalogVenues = ["polymarket", "kalshi", "limitless", "myriad", "probable", "opinion", "baozi"] as const;

/** Exchange keys a client may name in `exchange=` (every pmxt-core venue Brier builds, not the router). */
export const exchangeKeys: readonly string[] = buildableExchanges.filter((key) => key !== "router");

/**
 * The venues the poller ingests: CATALOG_VENUES when set, otherwise the public seven, plus `mock`
 * whenever Postgres is embedded (a newcomer offline sees a populated catalog). With DATABASE_URL,
 * `mock` only when listed.
 */
export function catalogVenues(): string[] {
  if (config.catalog.venues !== undefined && config.catalog.venues.length > 0) return [...new Set(config.catalog.venues)];
  const venues: string[] = [...publicCatalogVenues];
  if (config.embeddedPostgres) venues.push("mock");
  return venues;
}
