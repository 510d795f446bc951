import type { OutMessage } from "./protocol";

/**
 * A connection's bounded outgoing side. It is written at most once per tick (`TickScheduler`):
 * everything due since its last write goes out together, in one write to the socket.
 *
 * Three kinds of content:
 * - live books are not stored here: at each write the connection's `collect` pulls, for each of
 *   its subscriptions with news, the latest book of each symbol that changed since its last write
 *   (lib/streams/fanout.ts). A connection that cannot keep up therefore gets the latest book per
 *   symbol when it can take more, never an older book after a newer one, and holds no queue of them.
 * - books from venue watchers wait in one slot per (subscription, symbol): a newer one replaces the
 *   waiting one.
 * - everything else (trades, acknowledgements, errors) queues in order and is never merged.
 *
 * While the transport holds more than `bufferBytes` unsent, nothing is written. More than
 * `maxPending` waiting, or behind for longer than `slowConsumerMs`: the connection is closed with
 * a reason. Nothing here grows without bound.
 */

export interface Transport {
  /** Bytes written but not yet sent to the client. */
  buffered(): number;
  /** Writes several messages at once (one write to the socket where the transport can). */
  write(messages: readonly OutMessage[]): void;
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
  readonly #collect: ((into: OutMessage[]) => void) | undefined;
  /** Coalescible messages by slot; insertion order is arrival order of each slot's first message. */
  readonly #books = new Map<string, OutMessage>();
  readonly #queue: OutMessage[] = [];
  #behindSince: number | undefined;
  #closed = false;
  /** Set by the TickScheduler while this outbox waits for a write. */
  queued = false;
  /** Slot books replaced by a newer one before they were written. */
  coalesced = 0;
  /** Messages written to the transport. */
  sent = 0;

  /** `collect` appends the live books due at a write (the connection's subscriptions). */
  constructor(transport: Transport, limits: OutboxLimits, onDirty: (outbox: Outbox) => void, collect?: (into: OutMessage[]) => void) {
    this.#transport = transport;
    this.#limits = limits;
    this.#onDirty = onDirty;
    this.#collect = collect;
  }

  get closed(): boolean {
    return this.#closed;
  }

  get pending(): number {
    return this.#books.size + this.#queue.length;
  }

  /** A book update: replaces the waiting one of the same slot, if any. */
  pushBook(slot: string, message: OutMessage): void {
    if (this.#closed) return;
    if (this.#books.has(slot)) this.coalesced += 1;
    this.#books.set(slot, message);
    this.#changed();
  }

  /** A message that must not be dropped or merged (trade, acknowledgement, error). */
  push(message: OutMessage): void {
    if (this.#closed) return;
    this.#queue.push(message);
    this.#changed();
  }

  /** Live books are due (pulled through `collect` at the next write). */
  markDirty(): void {
    if (!this.#closed) this.#onDirty(this);
  }

  /**
   * Writes what is due if the transport has room; closes a consumer that stayed behind.
   * Returns true when it must be tried again (the transport was full).
   */
  flush(now: number): boolean {
    if (this.#closed) return false;
    if (this.#transport.buffered() >= this.#limits.bufferBytes) {
      this.#behindSince ??= now;
      if (now - this.#behindSince > this.#limits.slowConsumerMs) {
        this.close(SLOW_CONSUMER_CLOSE, `slow consumer: more than ${this.#limits.slowConsumerMs} ms behind`);
        return false;
      }
      return true;
    }
    this.#behindSince = undefined;
    this.#write(this.#take());
    return false;
  }

  /** A graceful end: what is due is written first (whatever the buffer holds), then the close. */
  end(code: number, reason: string): void {
    if (this.#closed) return;
    this.#write(this.#take());
    this.close(code, reason);
  }

  close(code: number, reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#books.clear();
    this.#queue.length = 0;
    this.#transport.close(code, reason);
  }

  #take(): OutMessage[] {
    const batch = this.#queue.splice(0, this.#queue.length);
    for (const message of this.#books.values()) batch.push(message);
    this.#books.clear();
    this.#collect?.(batch);
    return batch;
  }

  #write(batch: OutMessage[]): void {
    if (batch.length === 0) return;
    this.sent += batch.length;
    this.#transport.write(batch);
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
 * The tick: every `tickMs` (0: every turn of the event loop) it runs `beforeFlush` (the fan-out
 * publishes the books that changed since the last tick) and then writes each dirty outbox once.
 * It runs only while something is due. Outboxes whose transport is full stay dirty and are
 * retried at the next tick (at least every 10 ms).
 */
export class TickScheduler {
  readonly #dirty = new Set<Outbox>();
  readonly #tickMs: number;
  readonly #beforeFlush: () => void;
  #timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  /** Ticks run, and outboxes written, since start. */
  ticks = 0;

  constructor(tickMs: number, beforeFlush: () => void = () => undefined) {
    this.#tickMs = tickMs;
    this.#beforeFlush = beforeFlush;
  }

  readonly mark = (outbox: Outbox): void => {
    if (outbox.queued) return;
    outbox.queued = true;
    this.#dirty.add(outbox);
    this.schedule();
  };

  /** Makes sure a tick runs soon (the fan-out calls it when a book arrives). */
  schedule(delayMs = this.#tickMs): void {
    if (this.#timer !== undefined) return;
    this.#timer = delayMs === 0 ? setImmediate(() => this.#run()) : setTimeout(() => this.#run(), delayMs);
  }

  stop(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer as NodeJS.Timeout);
    clearImmediate(this.#timer as NodeJS.Immediate);
    this.#timer = undefined;
  }

  #run(): void {
    this.#timer = undefined;
    this.ticks += 1;
    this.#beforeFlush();
    const outboxes = [...this.#dirty];
    this.#dirty.clear();
    const now = Date.now();
    for (const outbox of outboxes) {
      outbox.queued = false;
      // Still behind: it stays dirty; what arrives meanwhile waits without rescheduling.
      if (outbox.flush(now)) this.mark(outbox);
    }
    if (this.#dirty.size > 0) {
      this.stop();
      this.schedule(Math.max(this.#tickMs, 10));
    }
  }
}
