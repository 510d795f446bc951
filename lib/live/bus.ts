/**
 * The live path between the recorder (publisher) and the stream servers (subscribers). Two
 * implementations with one contract: in-process (embedded setup: the recorder runs inside the
 * server) and NATS (lib/streams/nats-bus.ts: any number of web instances, recorders apart).
 *
 * Subjects, for NATS and as the in-process keys:
 *   brier.live.book.<venue>.<assetId>      every book update of a recorded asset (full book)
 *   brier.live.trade.<venue>.<assetId>     every trade (last_trade_price)
 *   brier.live.snapshot.<venue>.<assetId>  request/reply: the current book, from the recorder that records it
 *   brier.live.resolution.<venue>          every change of a market's outcome (lib/outcomes)
 */

/** One book update: the whole book after a venue frame (best level first), with its order. */
export interface BookMessage {
  venue: string;
  assetId: string;
  market: string;
  /** The publishing recorder's run id: sequences compare only within one run. */
  epoch: string;
  /** Increases with every update of this asset within one run. */
  seq: number;
  /** Venue time of the update, epoch ms. */
  timestamp: number;
  bids: [number, number][];
  asks: [number, number][];
  /** False after the rebuilt book disagreed with the venue's stated best prices (until the next snapshot). */
  inSync: boolean;
}

export interface TradeMessage {
  venue: string;
  assetId: string;
  market: string;
  id: string;
  timestamp: number;
  price: number;
  amount: number;
  side: "buy" | "sell" | "unknown";
}

/**
 * One change of a market's outcome (lib/outcomes/types.ts `ResolutionChange`, times as epoch ms),
 * published by whoever recorded it: the venues' outcome readers, the demo.
 */
export interface ResolutionMessage {
  venue: string;
  market: string;
  venueMarketId: string;
  outcomeIds: string[];
  state: string;
  venueState: string | null;
  winningOutcomeId: string | null;
  settlementValue: number | null;
  closedAt: number | null;
  venueTime: number;
  receivedAt: number;
  source: string;
  resolutionSource: string | null;
}

/** A recorder's answer to "what is the current book of this asset?" */
export interface SnapshotReply {
  /** True when the answering recorder records the asset (a book may still be missing). */
  recorded: true;
  book: BookMessage | null;
}

export type Unsubscribe = () => void;

export interface LiveBus {
  readonly kind: "in-process" | "nats";
  publishBook(message: BookMessage): void;
  publishTrade(message: TradeMessage): void;
  publishResolution(message: ResolutionMessage): void;
  /** Book updates of one asset, or of every asset of `venue` (assetId undefined), or of all venues. */
  subscribeBooks(venue: string | undefined, assetId: string | undefined, handler: (message: BookMessage) => void): Unsubscribe;
  subscribeTrades(venue: string, assetId: string, handler: (message: TradeMessage) => void): Unsubscribe;
  /** Outcome changes of one venue, or of all (venue undefined). */
  subscribeResolutions(venue: string | undefined, handler: (message: ResolutionMessage) => void): Unsubscribe;
  /** Recorder side: answer snapshot requests for the assets `provider` knows (undefined: not mine). */
  serveSnapshots(venue: string, provider: (assetId: string) => SnapshotReply | undefined): Unsubscribe;
  /** Web side: the current book from whichever recorder records the asset; undefined when none does. */
  requestSnapshot(venue: string, assetId: string): Promise<SnapshotReply | undefined>;
  /** Resolves once every subscription made so far receives what is published after it. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

const SEP = "\u0000";

/** The embedded setup's bus: plain callbacks, delivered synchronously on publish. */
export class InProcessBus implements LiveBus {
  readonly kind = "in-process" as const;
  readonly #books = new Map<string, Set<(message: BookMessage) => void>>();
  readonly #trades = new Map<string, Set<(message: TradeMessage) => void>>();
  readonly #snapshotProviders = new Map<string, Set<(assetId: string) => SnapshotReply | undefined>>();
  readonly #resolutions = new Map<string, Set<(message: ResolutionMessage) => void>>();

  publishBook(message: BookMessage): void {
    for (const key of [`${message.venue}${SEP}${message.assetId}`, `${message.venue}${SEP}`, SEP]) {
      const handlers = this.#books.get(key);
      if (handlers !== undefined) for (const handler of handlers) handler(message);
    }
  }

  publishTrade(message: TradeMessage): void {
    const handlers = this.#trades.get(`${message.venue}${SEP}${message.assetId}`);
    if (handlers !== undefined) for (const handler of handlers) handler(message);
  }

  publishResolution(message: ResolutionMessage): void {
    for (const key of [message.venue, SEP]) {
      const handlers = this.#resolutions.get(key);
      if (handlers !== undefined) for (const handler of handlers) handler(message);
    }
  }

  subscribeResolutions(venue: string | undefined, handler: (message: ResolutionMessage) => void): Unsubscribe {
    return add(this.#resolutions, venue ?? SEP, handler);
  }

  subscribeBooks(venue: string | undefined, assetId: string | undefined, handler: (message: BookMessage) => void): Unsubscribe {
    const key = venue === undefined ? SEP : `${venue}${SEP}${assetId ?? ""}`;
    return add(this.#books, key, handler);
  }

  subscribeTrades(venue: string, assetId: string, handler: (message: TradeMessage) => void): Unsubscribe {
    return add(this.#trades, `${venue}${SEP}${assetId}`, handler);
  }

  serveSnapshots(venue: string, provider: (assetId: string) => SnapshotReply | undefined): Unsubscribe {
    return add(this.#snapshotProviders, venue, provider);
  }

  requestSnapshot(venue: string, assetId: string): Promise<SnapshotReply | undefined> {
    for (const provider of this.#snapshotProviders.get(venue) ?? []) {
      const reply = provider(assetId);
      if (reply !== undefined) return Promise.resolve(reply);
    }
    return Promise.resolve(undefined);
  }

  ready(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.#books.clear();
    this.#trades.clear();
    this.#snapshotProviders.clear();
    this.#resolutions.clear();
    return Promise.resolve();
  }
}

function add<T>(map: Map<string, Set<T>>, key: string, handler: T): Unsubscribe {
  let set = map.get(key);
  if (set === undefined) {
    set = new Set();
    map.set(key, set);
  }
  set.add(handler);
  return () => {
    const current = map.get(key);
    if (current === undefined) return;
    current.delete(handler);
    if (current.size === 0) map.delete(key);
  };
}
