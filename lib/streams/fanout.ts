import type { BookMessage } from "@/lib/live/bus";
import { EncodedBook } from "./encode";
import type { AssetState, Feed, FirehoseFeed, TopicFeed } from "./feeds";
import { FirehoseLog } from "./firehose";
import { dataMessage, type OutMessage } from "./protocol";

/**
 * Book fan-out of one web instance. Books arrive from the bus (`offer`); at each tick (`advance`)
 * the latest book of every asset that changed is committed and serialized once; subscriptions
 * with news are told, and each connection pulls its due books when it is written (`collect`).
 *
 * Per subscription the state is O(its symbols): for a topic subscription, the version last
 * written per symbol; for a firehose subscription, the tick it was last written at. A subscription
 * always gets the committed (latest) book of a symbol, so a connection that fell behind catches up
 * with the latest books, never an older one after a newer, and never with a backlog.
 */


function newer(last: BookMessage | undefined, message: BookMessage): boolean {
  return last === undefined || last.epoch !== message.epoch || message.seq > last.seq;
}

export class BookFanout {
  readonly #assets = new Map<string, AssetState>();
  readonly #changed = new Set<AssetState>();
  readonly #firehose = new FirehoseLog();
  readonly #onChange: () => void;
  #tick = 0;

  /** `onChange` asks for a tick (a book arrived). */
  constructor(onChange: () => void) {
    this.#onChange = onChange;
  }

  get assets(): number {
    return this.#assets.size;
  }

  /** True when this instance holds a live book of the asset (its updates reach this instance). */
  hasBook(venue: string, assetId: string): boolean {
    return this.#assets.get(key(venue, assetId))?.latest !== undefined;
  }

  /** A book from the bus (a topic or the firehose subscription; duplicates and older books are dropped). */
  offer(message: BookMessage): boolean {
    const asset = this.#asset(message.venue, message.assetId, this.#firehose.active);
    if (asset === undefined || !newer(asset.latest, message)) return false;
    asset.latest = message;
    asset.version += 1;
    this.#firehose.accepted(asset.venue);
    if (!this.#changed.has(asset)) {
      this.#changed.add(asset);
      this.#onChange();
    }
    return true;
  }

  /** Commits what changed since the last tick and tells the subscriptions concerned. */
  advance(): void {
    if (this.#changed.size === 0) return;
    this.#tick += 1;
    const changed = [...this.#changed];
    this.#changed.clear();
    for (const asset of changed) {
      if (asset.latest === undefined) continue;
      asset.committed = { book: new EncodedBook(asset.latest), version: asset.version };
      asset.changedTick = this.#tick;
      for (const feed of asset.topics) feed.notify();
    }
    this.#firehose.commit(this.#tick, changed);
  }

  /** A topic subscription joins its symbols (books are kept for it from now on). */
  addTopic(feed: TopicFeed): void {
    for (const symbol of feed.symbols) this.#asset(feed.venue, symbol, true)?.topics.add(feed);
  }

  /** The subscription was acknowledged: it gets the books already there at once, then every change. */
  activate(feed: TopicFeed): void {
    feed.active = true;
    feed.notify();
  }

  removeTopic(feed: TopicFeed): void {
    for (const symbol of feed.symbols) {
      const asset = this.#assets.get(key(feed.venue, symbol));
      if (asset === undefined) continue;
      asset.topics.delete(feed);
      this.#forgetIfUnused(asset);
    }
  }

  addFirehose(feed: FirehoseFeed): void {
    feed.cursor = this.#tick;
    feed.counted = this.#firehose.count(feed.venues);
    this.#firehose.add(feed);
  }

  removeFirehose(feed: FirehoseFeed): void {
    this.#firehose.remove(feed);
    if (!this.#firehose.active) for (const asset of [...this.#assets.values()]) this.#forgetIfUnused(asset);
  }

  /** Appends the feed's due books to `into`; returns how many. */
  collect(feed: Feed, into: OutMessage[]): number {
    return feed.kind === "topic" ? this.#collectTopic(feed, into) : this.#firehose.collect(feed, this.#tick, this.#assets.values(), into);
  }

  #collectTopic(feed: TopicFeed, into: OutMessage[]): number {
    if (!feed.active) return 0;
    let count = 0;
    for (const symbol of feed.symbols) {
      const committed = this.#assets.get(key(feed.venue, symbol))?.committed;
      if (committed === undefined) continue;
      const written = feed.written.get(symbol) ?? 0;
      if (committed.version <= written) continue;
      // The first book counts one; after that, every accepted update since the last one written.
      feed.seq += written === 0 ? 1 : committed.version - written;
      feed.written.set(symbol, committed.version);
      into.push(dataMessage(feed.idJson, feed.methodJson, committed.book.symbolJson, feed.seq, committed.book.body(feed.limit)));
      count += 1;
    }
    return count;
  }

  #asset(venue: string, assetId: string, create: boolean): AssetState | undefined {
    const id = key(venue, assetId);
    let asset = this.#assets.get(id);
    if (asset === undefined && create) {
      asset = { venue, assetId, latest: undefined, version: 0, committed: undefined, changedTick: 0, topics: new Set() };
      this.#assets.set(id, asset);
    }
    return asset;
  }

  #forgetIfUnused(asset: AssetState): void {
    if (asset.topics.size > 0 || this.#firehose.active) return;
    this.#assets.delete(key(asset.venue, asset.assetId));
    this.#changed.delete(asset);
  }
}

function key(venue: string, assetId: string): string {
  return `${venue}\u0000${assetId}`;
}
