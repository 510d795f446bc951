import * as crypto from "node:crypto";
import type { TickRow } from "./rows";

/** One-shot SHA-1 (Node ≥ 20.12 has `crypto.hash`, several times cheaper than a Hash object per row). */
const sha1Base64: (text: string) => string =
  typeof crypto.hash === "function"
    ? (text) => crypto.hash("sha1", text, "base64")
    : (text) => crypto.createHash("sha1").update(text).digest("base64");

/** Identity of a stored event: everything but the receive time (a 160-bit digest, 28 characters). */
export function rowKey(market: string, timestampMs: number, eventType: string, data: string): string {
  return sha1Base64(`${market}\u0001${timestampMs}\u0001${eventType}\u0001${data}`);
}

/**
 * The events written recently, so a replay after a reconnect (the venue re-sends its book
 * snapshot) or after a restart (seeded from the table) is dropped before insert. Bounded: the
 * oldest keys are forgotten first (a ring of keys in admission order, O(1) per row); the table's
 * ReplacingMergeTree collapses anything older.
 */
export class RecentRows {
  readonly #keys = new Set<string>();
  readonly #ring: Array<string | undefined>;
  #next = 0;

  constructor(readonly capacity: number) {
    this.#ring = new Array<string | undefined>(capacity);
  }

  get size(): number {
    return this.#keys.size;
  }

  /** True the first time a row is seen (and remembers it). */
  admit(row: TickRow): boolean {
    return this.admitKey(rowKey(row.market, row.timestampMs, row.eventType, row.data));
  }

  admitKey(key: string): boolean {
    if (this.#keys.has(key)) return false;
    if (this.capacity <= 0) return true;
    const oldest = this.#ring[this.#next];
    if (oldest !== undefined) this.#keys.delete(oldest);
    this.#ring[this.#next] = key;
    this.#next = (this.#next + 1) % this.capacity;
    this.#keys.add(key);
    return true;
  }
}
