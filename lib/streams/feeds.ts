import type { BookMessage } from "@/lib/live/bus";
import type { EncodedBook } from "./encode";

/*
 * The state the fan-out (lib/streams/fanout.ts) and the firehose log (lib/streams/firehose.ts)
 * share: an asset's live state and the two kinds of subscription feed.
 */

/** An asset's live state, shared by every subscription on this instance. */
export interface AssetState {
  readonly venue: string;
  readonly assetId: string;
  /** The newest book received (possibly not yet committed). */
  latest: BookMessage | undefined;
  /** Books accepted so far (newer than the one before): the asset's version on this instance. */
  version: number;
  /** The book subscribers get, as of the last tick, serialized once. */
  committed: { book: EncodedBook; version: number } | undefined;
  /** Tick at which `committed` last changed. */
  changedTick: number;
  readonly topics: Set<TopicFeed>;
}

/** What a subscription is told when it has news; it then pulls through `collect`. */
type Notify = () => void;

interface FeedBase {
  readonly idJson: string;
  readonly methodJson: string;
  readonly notify: Notify;
  /** The subscription's own sequence (see lib/streams/protocol.ts dataMessage). */
  seq: number;
}

export interface TopicFeed extends FeedBase {
  readonly kind: "topic";
  readonly venue: string;
  readonly symbols: readonly string[];
  /** Depth limit per side (watchOrderBook's second argument). */
  readonly limit: number | undefined;
  /** Version written last, per symbol (0: nothing yet). */
  readonly written: Map<string, number>;
  /** False until the subscription is acknowledged: no book goes out before "subscribed". */
  active: boolean;
}

export interface FirehoseFeed extends FeedBase {
  readonly kind: "firehose";
  /** Venues to keep; undefined: all. */
  readonly venues: ReadonlySet<string> | undefined;
  /** Tick this feed was written up to. */
  cursor: number;
  /** Books accepted in its venues up to `cursor` (the basis of its sequence). */
  counted: number;
}

export type Feed = TopicFeed | FirehoseFeed;
