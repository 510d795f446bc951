import type { LiveBus, ResolutionMessage, Unsubscribe } from "@/lib/live/bus";
import { errorFields, log } from "@/lib/log";
import { toResolutionChangePublic } from "@/lib/outcomes/public";
import { changeOfMessage } from "@/lib/outcomes/sink";
import { StreamProtocolError } from "./accounting";
import type { Subscription } from "./session";

/*
 * `watchResolutions` (docs/streams.md, "Resolutions"): every change of a market's outcome that any
 * instance's outcome sink records (lib/outcomes/sink.ts publishes it on the live bus,
 * `brier.live.resolution.<venue>`), as a `resolution` event. One bus subscription per venue on
 * this instance, however many clients follow it. Changes are rare and each one is a fact: they are
 * queued to every subscriber in order and never merged.
 */

/** Brier's outcome stream: `watchResolutions` with args `[ids?]` on the venue's exchange. */
export const RESOLUTION_METHOD = "watchResolutions";

/** Market ids one subscription may name (each counts one of the key's subscriptions). */
export const MAX_RESOLUTION_MARKETS = 1_000;

/**
 * The markets a `watchResolutions` names: undefined for every market of the venue (no argument,
 * or null), else a set of ids, each matching a change by its books key (`market`: condition id,
 * Kalshi ticker), its venue-native id (`venueMarketId`) or any of its outcome ids.
 */
export function parseResolutionArgs(args: unknown[]): Set<string> | undefined {
  const [first] = args;
  if (args.length === 0 || (args.length === 1 && (first === undefined || first === null))) return undefined;
  const list = typeof first === "string" ? [first] : first;
  const ok =
    args.length === 1 &&
    Array.isArray(list) &&
    list.length > 0 &&
    list.length <= MAX_RESOLUTION_MARKETS &&
    list.every((id) => typeof id === "string" && id !== "" && id.length <= 200);
  if (!ok) {
    throw new StreamProtocolError(
      "VALIDATION_ERROR",
      `watchResolutions takes one optional argument: a market id or a list of at most ${MAX_RESOLUTION_MARKETS} (condition id, Kalshi ticker, the venue's market id or an outcome id); none follows every market of the venue.`,
    );
  }
  return new Set(list as string[]);
}

/** Whether a change concerns one of `ids`. */
export function resolutionMatches(message: ResolutionMessage, ids: ReadonlySet<string>): boolean {
  return ids.has(message.market) || ids.has(message.venueMarketId) || message.outcomeIds.some((id) => ids.has(id));
}

/** The `data` of a `resolution` event: the change as GET /v0/resolutions lists it. */
export function resolutionData(message: ResolutionMessage): string {
  return JSON.stringify(toResolutionChangePublic(changeOfMessage(message)));
}

interface Follower {
  subscription: Subscription;
  ids: ReadonlySet<string> | undefined;
  /** False until the subscription's `subscribed` was sent: nothing goes out before it. */
  active: boolean;
}

/** The venues' outcome changes on this instance, handed to the subscriptions that follow them. */
export class ResolutionFeeds {
  readonly #bus: LiveBus;
  readonly #venues = new Map<string, { followers: Set<Follower>; unsubscribe: Unsubscribe; ready: Promise<void> }>();
  /** Changes received from the bus. */
  received = 0;

  constructor(bus: LiveBus) {
    this.#bus = bus;
  }

  /**
   * Follows `venue`'s changes (those of `ids`, or all) for `subscription`; resolves once the bus
   * subscription is in effect. Changes reach it from `activate()` on (called right after its
   * `subscribed`, in the same turn: every change published after that answer reaches it).
   */
  async follow(venue: string, subscription: Subscription, ids: ReadonlySet<string> | undefined): Promise<{ release: Unsubscribe; activate: () => void }> {
    let topic = this.#venues.get(venue);
    if (topic === undefined) {
      const unsubscribe = this.#bus.subscribeResolutions(venue, (message) => this.#deliver(venue, message));
      // As the firehose: a confirmation that fails is logged, and the subscription stands (NATS resubscribes on reconnect).
      topic = { followers: new Set(), unsubscribe, ready: this.#bus.ready().catch((error: unknown) => log.warn("resolution subscription not confirmed", errorFields(error))) };
      this.#venues.set(venue, topic);
    }
    const joined = topic;
    const follower: Follower = { subscription, ids, active: false };
    joined.followers.add(follower);
    const release = () => {
      joined.followers.delete(follower);
      if (joined.followers.size === 0 && this.#venues.get(venue) === joined) {
        this.#venues.delete(venue);
        joined.unsubscribe();
      }
    };
    await joined.ready;
    return {
      release,
      activate: () => {
        follower.active = true;
      },
    };
  }

  #deliver(venue: string, message: ResolutionMessage): void {
    const topic = this.#venues.get(venue);
    if (topic === undefined) return;
    this.received += 1;
    let data: string | undefined;
    for (const { subscription, ids, active } of topic.followers) {
      if (!active || (ids !== undefined && !resolutionMatches(message, ids))) continue;
      data ??= resolutionData(message);
      subscription.seq += 1;
      subscription.session.outbox.push(
        `{"event":"resolution","id":${subscription.idJson},"method":${subscription.methodJson},"symbol":${JSON.stringify(message.market)},"seq":${subscription.seq},"data":${data}}`,
      );
      subscription.session.delivered(1);
    }
  }
}
