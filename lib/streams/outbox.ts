/**
 * A connection's bounded outgoing buffer. Every message goes through it; a flush writes what is
 * waiting as long as the transport has room. When the client cannot keep up (the transport holds
 * more than `bufferBytes` unsent), book updates wait here coalesced: one slot per (subscription,
 * symbol) holding only the latest book, so a newer book replaces an older one in place and a stale
 * book is never written after a newer one. Other messages (trades, acknowledgements, errors) queue
 * in order. More than `maxPending` waiting, or behind for longer than `slowConsumerMs`: the
 * connection is closed with a reason. Nothing here grows without bound.
 */

export interface Transport {
  /** Bytes written but not yet sent to the client. */
  buffered(): number;
  /** Writes several messages at once (one syscall where the transport can). */
  write(messages: readonly string[]): void;
  close(code: number, reason: string): void;
}

export interface OutboxLimits {
  bufferBytes: number;
  maxPending: number;
  slowConsumerMs: number;
}

/** WebSocket close code of a slow consumer (policy violation: the client did not read). */
export const SLOW_CONSUMER_CLOSE = 1008;

export class Outbox {
  readonly #transport: Transport;
  readonly #limits: OutboxLimits;
  readonly #onDirty: (outbox: Outbox) => void;
  /** Coalescible messages by slot; insertion order is arrival order of each slot's first message. */
  readonly #books = new Map<string, string>();
  readonly #queue: string[] = [];
  #behindSince: number | undefined;
  #closed = false;
  /** Set by the FlushScheduler while this outbox waits for a flush. */
  queued = false;
  /** Book updates replaced by a newer one before they were written. */
  coalesced = 0;
  /** Messages written to the transport. */
  sent = 0;

  constructor(transport: Transport, limits: OutboxLimits, onDirty: (outbox: Outbox) => void) {
    this.#transport = transport;
    this.#limits = limits;
    this.#onDirty = onDirty;
  }

  get closed(): boolean {
    return this.#closed;
  }

  get pending(): number {
    return this.#books.size + this.#queue.length;
  }

  /** A book update: replaces the waiting one of the same slot, if any. */
  pushBook(slot: string, message: string): void {
    if (this.#closed) return;
    if (this.#books.has(slot)) this.coalesced += 1;
    this.#books.set(slot, message);
    this.#changed();
  }

  /** A message that must not be dropped or merged (trade, acknowledgement, error). */
  push(message: string): void {
    if (this.#closed) return;
    this.#queue.push(message);
    this.#changed();
  }

  /**
   * Writes what is waiting if the transport has room; closes a consumer that stayed behind.
   * Returns true when messages are still waiting (the transport was full).
   */
  flush(now: number): boolean {
    if (this.#closed) return false;
    if (this.#transport.buffered() >= this.#limits.bufferBytes) {
      this.#behindSince ??= now;
      if (now - this.#behindSince > this.#limits.slowConsumerMs) {
        this.close(SLOW_CONSUMER_CLOSE, `slow consumer: more than ${this.#limits.slowConsumerMs} ms behind`);
        return false;
      }
      return this.pending > 0;
    }
    this.#behindSince = undefined;
    if (this.pending === 0) return false;
    const batch = this.#queue.splice(0, this.#queue.length);
    for (const message of this.#books.values()) batch.push(message);
    this.#books.clear();
    this.sent += batch.length;
    this.#transport.write(batch);
    return false;
  }

  /** A graceful end: what is waiting is written first (whatever the buffer holds), then the close. */
  end(code: number, reason: string): void {
    if (this.#closed) return;
    const batch = this.#queue.splice(0, this.#queue.length);
    for (const message of this.#books.values()) batch.push(message);
    this.#books.clear();
    if (batch.length > 0) {
      this.sent += batch.length;
      this.#transport.write(batch);
    }
    this.close(code, reason);
  }

  close(code: number, reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#books.clear();
    this.#queue.length = 0;
    this.#transport.close(code, reason);
  }

  #changed(): void {
    if (this.pending > this.#limits.maxPending) {
      this.close(SLOW_CONSUMER_CLOSE, `slow consumer: more than ${this.#limits.maxPending} messages waiting`);
      return;
    }
    this.#onDirty(this);
  }
}

/**
 * Flushes dirty outboxes once per turn of the event loop: every update published in the same turn
 * (a burst of venue frames, a batch of NATS messages) coalesces before anything is written. Outboxes
 * that stay behind are retried every `retryMs`.
 */
export class FlushScheduler {
  readonly #dirty = new Set<Outbox>();
  readonly #retryMs: number;
  #scheduled = false;

  constructor(retryMs = 10) {
    this.#retryMs = retryMs;
  }

  readonly mark = (outbox: Outbox): void => {
    if (outbox.queued) return;
    outbox.queued = true;
    this.#dirty.add(outbox);
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.#run());
  };

  #run(): void {
    this.#scheduled = false;
    const outboxes = [...this.#dirty];
    this.#dirty.clear();
    const now = Date.now();
    const behind: Outbox[] = [];
    for (const outbox of outboxes) {
      outbox.queued = false;
      if (outbox.flush(now)) {
        // Still queued: new messages coalesce without scheduling until the retry.
        outbox.queued = true;
        behind.push(outbox);
      }
    }
    if (behind.length === 0) return;
    setTimeout(() => {
      for (const outbox of behind) {
        outbox.queued = false;
        this.mark(outbox);
      }
    }, this.#retryMs).unref();
  }
}
