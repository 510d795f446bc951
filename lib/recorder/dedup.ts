import { createHash } from "node:crypto";
import type { TickRow } from "./normalize";

/** Identity of a stored event: everything but the receive time. */
export function rowKey(market: string, timestampMs: number, eventType: string, data: string): string {
  return createHash("md5").update(`${market}\u0001${timestampMs}\u0001${eventType}\u0001${data}`).digest("base64");
}

/**
 * The events written recently, so a replay after a reconnect (the venue re-sends its book
 * snapshot) or after a restart (seeded from the table) is dropped before insert. Bounded: the
 * oldest keys are forgotten first; the table's ReplacingMergeTree collapses anything older.
 */
export class RecentRows {
  readonly #keys = new Set<string>();

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.#keys.size;
  }

  /** True the first time a row is seen (and remembers it). */
  admit(row: TickRow): boolean {
    return this.admitKey(rowKey(row.market, row.timestampMs, row.eventType, row.data));
  }

  admitKey(key: string): boolean {
    if (this.#keys.has(key)) return false;
    this.#keys.add(key);
    if (this.#keys.size > this.capacity) {
      const oldest = this.#keys.values().next();
      if (oldest.done !== true) this.#keys.delete(oldest.value);
    }
    return true;
  }
}
