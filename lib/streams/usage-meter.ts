/**
 * Usage of one stream session (stream seconds = subscriptions x time open, data messages),
 * sampled every minute and when it closes; the samples go to the usage store (lib/streams/usage.ts),
 * which writes them in batches off the delivery path.
 */

/** Messages and time of one session since its last sample. */
export interface StreamUsageSample {
  accountId: string;
  keyId: string | null;
  surface: "ws" | "sse";
  /** Subscription-seconds since the last sample (two subscriptions for 30 s = 60). */
  streamSeconds: number;
  messages: number;
}

/** What the meter needs of a subscription: its weight and when it started. */
export interface MeteredSubscription {
  weight: number;
  since: number;
}

export class UsageMeter {
  readonly #owner: { accountId: string; keyId: string | null; surface: "ws" | "sse" };
  #messages = 0;
  #sampledAt = Date.now();
  #streamMs = 0;

  constructor(owner: { accountId: string; keyId: string | null; surface: "ws" | "sse" }) {
    this.#owner = owner;
  }

  delivered(messages: number): void {
    this.#messages += messages;
  }

  /** Time of a subscription that ended, for the next sample. */
  ended(subscription: MeteredSubscription, now = Date.now()): void {
    this.#streamMs += (now - Math.max(subscription.since, this.#sampledAt)) * subscription.weight;
  }

  /** Usage since the last sample, with the subscriptions still open. */
  sample(open: Iterable<MeteredSubscription>, now = Date.now()): StreamUsageSample {
    let ms = this.#streamMs;
    for (const subscription of open) ms += (now - Math.max(subscription.since, this.#sampledAt)) * subscription.weight;
    const sample: StreamUsageSample = { ...this.#owner, streamSeconds: ms / 1000, messages: this.#messages };
    this.#messages = 0;
    this.#streamMs = 0;
    this.#sampledAt = now;
    return sample;
  }
}

/** Samples every open session once a minute. */
export function sampleEveryMinute(sample: () => void): () => void {
  const timer = setInterval(sample, 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
