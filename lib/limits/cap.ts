import type { KeyLimits } from "./key-limits";

/**
 * At most `limit` of something held per owner (an API key, an account) on every instance; one
 * more is refused at once with `refuse(limit)` (a 429 domain error, typically) rather than queued.
 */
export class KeyCap {
  readonly #name: string;
  readonly #limit: number;
  readonly #refuse: (limit: number) => Error;
  readonly #limits: () => Promise<KeyLimits>;

  constructor(name: string, limit: number, refuse: (limit: number) => Error, limits: () => Promise<KeyLimits>) {
    this.#name = name;
    this.#limit = limit;
    this.#refuse = refuse;
    this.#limits = limits;
  }

  /** Takes one for `owner`, or throws; the returned release is idempotent. */
  async acquire(owner: string): Promise<() => void> {
    const result = await (await this.#limits()).take(`${this.#name}:${owner}`, 1, this.#limit);
    if (!result.taken) throw this.#refuse(this.#limit);
    return () => void result.lease.release();
  }
}
