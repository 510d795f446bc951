import type { AssetState, FirehoseFeed } from "./feeds";
import { dataMessage, type OutMessage } from "./protocol";

/** Ticks kept for firehose subscriptions that are a little behind; further behind, the assets are scanned. */
const RECENT_TICKS = 64;

/**
 * The firehose side of the fan-out: every firehose subscription on this instance reads the same
 * short log of ticks (which assets changed at each), so its own state is two numbers (the tick it
 * was written up to and the count of books it has been offered), whatever the number of assets.
 * Its sequence grows by the books accepted in its venues: a jump larger than one says how many were
 * merged because it fell behind (or because several arrived within one tick).
 */
export class FirehoseLog {
  readonly #feeds = new Set<FirehoseFeed>();
  readonly #recent: Array<{ tick: number; assets: AssetState[] }> = [];
  /** Books accepted per venue: live, and as of the last commit. */
  readonly #accepted = new Map<string, number>();
  readonly #committed = new Map<string, number>();
  /** The due list of an up-to-date subscription of every venue, built once per tick and shared by all of them. */
  #shared: { tick: number; due: AssetState[] } | undefined;

  get active(): boolean {
    return this.#feeds.size > 0;
  }

  add(feed: FirehoseFeed): void {
    this.#feeds.add(feed);
  }

  remove(feed: FirehoseFeed): void {
    this.#feeds.delete(feed);
    if (this.#feeds.size === 0) this.#recent.length = 0;
  }

  accepted(venue: string): void {
    this.#accepted.set(venue, (this.#accepted.get(venue) ?? 0) + 1);
  }

  /** Books accepted in `venues` (all when undefined) as of the last commit. */
  count(venues: ReadonlySet<string> | undefined): number {
    let total = 0;
    if (venues === undefined) for (const n of this.#committed.values()) total += n;
    else for (const venue of venues) total += this.#committed.get(venue) ?? 0;
    return total;
  }

  /** A tick committed `changed`: logged, and every firehose subscription with a venue among them is told. */
  commit(tick: number, changed: AssetState[]): void {
    for (const [venue, n] of this.#accepted) this.#committed.set(venue, n);
    if (this.#feeds.size === 0) return;
    this.#recent.push({ tick, assets: changed });
    if (this.#recent.length > RECENT_TICKS) this.#recent.shift();
    const venues = new Set(changed.map((asset) => asset.venue));
    for (const feed of this.#feeds) {
      if (feed.venues === undefined || [...venues].some((venue) => feed.venues?.has(venue))) feed.notify();
    }
  }

  collect(feed: FirehoseFeed, tick: number, assets: Iterable<AssetState>, into: OutMessage[]): number {
    if (feed.cursor >= tick) return 0;
    const due = this.#due(feed, tick, assets);
    const counted = this.count(feed.venues);
    const offered = counted - feed.counted;
    let seq = feed.seq + Math.max(0, offered - due.length);
    for (const asset of due) {
      const committed = asset.committed;
      if (committed === undefined) continue;
      seq += 1;
      into.push(dataMessage(feed.idJson, feed.methodJson, committed.book.symbolJson, seq, committed.book.firehoseBody()));
    }
    feed.seq = seq;
    feed.counted = counted;
    feed.cursor = tick;
    return due.length;
  }

  /** The assets whose committed book the feed has not been written since its cursor, each once. */
  #due(feed: FirehoseFeed, tick: number, assets: Iterable<AssetState>): AssetState[] {
    // Most firehose subscriptions are one tick behind and take every venue: one list serves them all.
    const common = feed.venues === undefined && feed.cursor === tick - 1;
    if (common && this.#shared?.tick === tick) return this.#shared.due;
    const due: AssetState[] = [];
    const keep = (asset: AssetState) => asset.committed !== undefined && (feed.venues === undefined || feed.venues.has(asset.venue));
    const oldest = this.#recent[0];
    if (oldest !== undefined && oldest.tick <= feed.cursor + 1) {
      for (const entry of this.#recent) {
        if (entry.tick <= feed.cursor) continue;
        // An asset that changed again later is written once, at its last change.
        for (const asset of entry.assets) if (asset.changedTick === entry.tick && keep(asset)) due.push(asset);
      }
    } else {
      for (const asset of assets) if (asset.changedTick > feed.cursor && keep(asset)) due.push(asset);
    }
    if (common) this.#shared = { tick, due };
    return due;
  }
}
