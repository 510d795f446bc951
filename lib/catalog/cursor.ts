import { decodeCursor as decodePosition, encodeCursor as encodePosition } from "@/lib/input";
import { UUID_PATTERN } from "./ids";

/** The list orders of GET /v0/markets and /v0/events (`sort=`); `volume24h` is the default. */
export const listSorts = ["volume24h", "change24h", "liquidity", "resolutionDate", "newest"] as const;
export type ListSort = (typeof listSorts)[number];

/**
 * A keyset position in a list order: the sort key and id of the last row of a page.
 * `key` is a number (volume24h, change24h, liquidity), an ISO time (resolutionDate, newest), or
 * null where the row has no value (unknown liquidity or resolution date: those rows sort last).
 * Opaque to clients (lib/input.ts's cursor codec), validated strictly on the way back in.
 */
export interface Cursor {
  sort: ListSort;
  key: number | string | null;
  id: string;
  /** In a search (`query=`), 2 when the row is a title-and-slug match (lib/catalog/search.ts); absent means 1. */
  tier?: 2;
}

/** Sorts whose key is a timestamp (the others are numbers). */
const timeSorts: ReadonlySet<ListSort> = new Set(["resolutionDate", "newest"]);
/** Sorts whose key may be unknown (null sorts after every value). */
const nullableSorts: ReadonlySet<ListSort> = new Set(["liquidity", "resolutionDate"]);

export function encodeCursor(cursor: Cursor): string {
  // The default order keeps the original two-element form, so cursors issued before `sort=` existed
  // stay valid; a search's second tier adds a fourth element.
  if (cursor.tier === 2) return encodePosition([cursor.sort, cursor.key, cursor.id, 2]);
  return encodePosition(cursor.sort === "volume24h" ? [cursor.key, cursor.id] : [cursor.sort, cursor.key, cursor.id]);
}

function validKey(sort: ListSort, key: unknown): key is Cursor["key"] {
  if (key === null) return nullableSorts.has(sort);
  if (timeSorts.has(sort)) return typeof key === "string" && key.length <= 40 && Number.isFinite(Date.parse(key));
  return typeof key === "number" && Number.isFinite(key);
}

export function decodeCursor(raw: string): Cursor | undefined {
  const value = decodePosition(raw);
  if (!Array.isArray(value)) return undefined;
  let parts: unknown[];
  if (value.length === 2) parts = ["volume24h", ...(value as unknown[])];
  else if (value.length === 3 && value[0] !== "volume24h") parts = value as unknown[];
  else if (value.length === 4 && value[3] === 2) parts = value as unknown[];
  else return undefined;
  const [sort, key, id, tier] = parts;
  if (typeof sort !== "string" || !(listSorts as readonly string[]).includes(sort)) return undefined;
  const listSort = sort as ListSort;
  if (!validKey(listSort, key)) return undefined;
  if (typeof id !== "string" || !UUID_PATTERN.test(id)) return undefined;
  return { sort: listSort, key, id: id.toLowerCase(), ...(tier === 2 ? { tier: 2 as const } : {}) };
}
