import { createHash } from "node:crypto";

/** Brier's own UUID v5 namespace for catalog ids (random, fixed forever: changing it changes every id). */
export const CATALOG_NAMESPACE = "4d1a3b8e-6c2f-4f5e-9a07-2b9c8e51d3a6";

const namespaceBytes = Buffer.from(CATALOG_NAMESPACE.replaceAll("-", ""), "hex");

/** RFC 4122 UUID v5 (SHA-1, name-based) of `name` in the catalog namespace. */
export function uuidV5(name: string): string {
  const hash = createHash("sha1").update(namespaceBytes).update(name, "utf8").digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The catalog id of an event: stable across re-ingestion and rebuilds. */
export const eventUuid = (venue: string, venueEventId: string): string => uuidV5(`${venue}\u0000event\u0000${venueEventId}`);

/** The catalog id of a market (a separate name space from events: Myriad uses one id for both). */
export const marketUuid = (venue: string, venueMarketId: string): string =>
  uuidV5(`${venue}\u0000market\u0000${venueMarketId}`);

/**
 * A stable synthetic contract address (`0x` + 64 hex) for a venue market that has none, so tick
 * tables keyed by `market` can still hold it. Synthetic: it exists on no chain.
 */
export const syntheticContractAddress = (venue: string, venueMarketId: string): string =>
  `0x${createHash("sha256").update(`${venue}\u0000${venueMarketId}`).digest("hex")}`;

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
