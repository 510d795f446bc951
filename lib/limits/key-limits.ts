import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { resultRows, type Db } from "@/lib/db";
import { errorFields, log } from "@/lib/log";

/**
 * Per-key limits that hold across instances: "this key may hold at most N of X at once" (stream
 * subscriptions, stream connections, SQL queries, venue calls in flight). A holder takes units of
 * a bucket and gives them back; a refusal says how many the bucket held, so every instance words
 * the same error.
 *
 * Two implementations with one contract (lib/limits/key-limits.test.ts runs the same suite on both):
 * - `MemoryKeyLimits`: the embedded setup, where one process owns the database and serves every
 *   client, counts in memory.
 * - `PgKeyLimits`: PostgreSQL, where any number of web instances serve one key. Each taken group of
 *   units is a lease row renewed by its instance every `ttlMs / 4`; a killed instance stops renewing
 *   and its rows stop counting `ttlMs` after the last renewal.
 */

export interface Lease {
  /** Gives the units back; idempotent. Resolves once every instance sees them free. */
  release(): Promise<void>;
}

export type TakeResult = { taken: true; lease: Lease } | { taken: false; held: number };

export interface KeyLimits {
  readonly kind: "memory" | "postgres";
  /** Takes `weight` units of `bucket` if it then holds at most `limit`; otherwise nothing is taken. */
  take(bucket: string, weight: number, limit: number): Promise<TakeResult>;
  /** Units `bucket` holds now, on every instance. */
  held(bucket: string): Promise<number>;
  /** Stops renewing and gives back everything this instance holds (shutdown). */
  close(): Promise<void>;
}

export class MemoryKeyLimits implements KeyLimits {
  readonly kind = "memory" as const;
  readonly #held = new Map<string, number>();

  take(bucket: string, weight: number, limit: number): Promise<TakeResult> {
    const held = this.#held.get(bucket) ?? 0;
    if (held + weight > limit) return Promise.resolve({ taken: false, held });
    this.#held.set(bucket, held + weight);
    let released = false;
    const release = (): Promise<void> => {
      if (released) return Promise.resolve();
      released = true;
      const left = (this.#held.get(bucket) ?? weight) - weight;
      if (left <= 0) this.#held.delete(bucket);
      else this.#held.set(bucket, left);
      return Promise.resolve();
    };
    return Promise.resolve({ taken: true, lease: { release } });
  }

  held(bucket: string): Promise<number> {
    return Promise.resolve(this.#held.get(bucket) ?? 0);
  }

  close(): Promise<void> {
    this.#held.clear();
    return Promise.resolve();
  }
}

export interface PgKeyLimitsOptions {
  /** How long a lease outlives its instance's last renewal. */
  ttlMs: number;
  /** This instance's name in `limit_leases.holder` (default: a random id per process). */
  holder?: string;
}

/**
 * Leases in PostgreSQL (`limit_leases`, taken through `brier_take_lease`: drizzle/0013). One round
 * trip to take, one to give back; one UPDATE renews every lease of the instance.
 */
export class PgKeyLimits implements KeyLimits {
  readonly kind = "postgres" as const;
  readonly holder: string;
  readonly #db: Db;
  readonly #ttlMs: number;
  readonly #timer: NodeJS.Timeout;
  /** Releases not yet written, per bucket: a take on the bucket waits for them (unsubscribe, then subscribe). */
  readonly #releasing = new Map<string, Set<Promise<void>>>();
  #held = 0;
  #closed = false;

  constructor(db: Db, options: PgKeyLimitsOptions) {
    this.#db = db;
    this.#ttlMs = options.ttlMs;
    this.holder = options.holder ?? randomUUID();
    this.#timer = setInterval(() => void this.renew(), Math.max(250, Math.floor(options.ttlMs / 4)));
    this.#timer.unref();
  }

  async take(bucket: string, weight: number, limit: number): Promise<TakeResult> {
    if (this.#closed) throw new Error("key limits closed");
    const pending = this.#releasing.get(bucket);
    if (pending !== undefined) await Promise.all(pending);
    const id = randomUUID();
    const rows = resultRows<{ taken: boolean; held: number | string }>(
      await this.#db.execute(sql`select taken, held from brier_take_lease(${bucket}, ${id}, ${this.holder}, ${weight}, ${limit}, ${this.#ttlMs})`),
    );
    const row = rows[0];
    if (row === undefined) throw new Error("brier_take_lease answered no row");
    if (!row.taken) return { taken: false, held: Number(row.held) };
    this.#held += 1;
    let releasing: Promise<void> | undefined;
    const release = (): Promise<void> => {
      releasing ??= this.#release(bucket, id);
      return releasing;
    };
    return { taken: true, lease: { release } };
  }

  async held(bucket: string): Promise<number> {
    const rows = resultRows<{ held: number | string }>(
      await this.#db.execute(
        sql`select coalesce(sum(weight), 0)::integer as held from limit_leases where bucket = ${bucket} and expires_at > clock_timestamp()`,
      ),
    );
    return Number(rows[0]?.held ?? 0);
  }

  /** Extends every lease of this instance (on a timer; exposed for tests). */
  async renew(): Promise<void> {
    if (this.#closed || this.#held === 0) return;
    try {
      await this.#db.execute(
        sql`update limit_leases set expires_at = clock_timestamp() + make_interval(secs => ${this.#ttlMs / 1000}) where holder = ${this.holder}`,
      );
    } catch (error) {
      log.warn("limit lease renewal failed", errorFields(error));
    }
  }

  /** Stops renewing without giving anything back: what a killed instance leaves behind (tests, the soak). */
  abandon(): void {
    this.#closed = true;
    clearInterval(this.#timer);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.abandon();
    await this.#db.execute(sql`delete from limit_leases where holder = ${this.holder}`).catch((error: unknown) => {
      log.warn("limit leases not given back; they expire on their own", errorFields(error));
    });
  }

  #release(bucket: string, id: string): Promise<void> {
    let set = this.#releasing.get(bucket);
    if (set === undefined) {
      set = new Set();
      this.#releasing.set(bucket, set);
    }
    const pending = set;
    const write = async (): Promise<void> => {
      try {
        if (!this.#closed) await this.#db.execute(sql`delete from limit_leases where id = ${id}`);
      } catch (error) {
        log.warn("limit lease release failed; it expires on its own", errorFields(error));
      }
    };
    const done = write().finally(() => {
      this.#held -= 1;
      pending.delete(done);
      if (pending.size === 0 && this.#releasing.get(bucket) === pending) this.#releasing.delete(bucket);
    });
    pending.add(done);
    return done;
  }
}
