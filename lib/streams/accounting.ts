import type { Plan } from "@/lib/config";
import { AppError } from "@/lib/errors";
import type { KeyLimits, Lease } from "@/lib/limits/key-limits";
import { ownerOf } from "@/lib/auth/principal";

/**
 * A key's stream limits, counted where every web instance sees them (lib/limits: leases in
 * PostgreSQL, or in memory on the embedded setup): open connections (`/ws` and `/v0/stream`
 * together) and concurrent subscriptions by plan. The refusal is worded from the shared count,
 * so a client gets the same error whichever instance it reached.
 */

export interface StreamPrincipal {
  accountId: string;
  /** The API key; null for a dashboard session (SSE). */
  keyId: string | null;
  plan: Plan;
}

export interface StreamQuotas {
  subscriptions: Record<Plan, number>;
  connectionsPerKey: number;
}

/** Whose limits a session counts against: the key, or the account for a dashboard session (one home: lib/auth/principal.ts). */
export { ownerOf };

/** A refusal on the stream protocol (an `error` event's code and message). */
export class StreamProtocolError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

export class StreamAccounting {
  readonly quotas: StreamQuotas;
  readonly #limits: KeyLimits;

  constructor(limits: KeyLimits, quotas: StreamQuotas) {
    this.#limits = limits;
    this.quotas = quotas;
  }

  /** Takes one of the key's connections, or throws the 429 the upgrade (or SSE request) answers. */
  async admitConnection(principal: StreamPrincipal): Promise<Lease> {
    const cap = this.quotas.connectionsPerKey;
    const result = await this.#limits.take(`stream-connections:${ownerOf(principal)}`, 1, cap);
    if (!result.taken) throw new AppError("rate_limited", `At most ${cap} stream connections may be open per key; close one first.`, { retryAfter: 1 });
    return result.lease;
  }

  /** Takes `weight` of the key's subscriptions, or throws SUBSCRIPTION_LIMIT. */
  async reserveSubscriptions(principal: StreamPrincipal, weight: number): Promise<Lease> {
    const limit = this.quotas.subscriptions[principal.plan];
    const result = await this.#limits.take(`stream-subscriptions:${ownerOf(principal)}`, weight, limit);
    if (!result.taken) {
      throw new StreamProtocolError(
        "SUBSCRIPTION_LIMIT",
        `The ${principal.plan} plan allows ${limit} concurrent stream subscriptions per key; this key holds ${result.held} and this subscription needs ${weight}.`,
      );
    }
    return result.lease;
  }

  /** Subscriptions the key holds now, on every instance. */
  subscriptionsHeld(principal: StreamPrincipal): Promise<number> {
    return this.#limits.held(`stream-subscriptions:${ownerOf(principal)}`);
  }

  /** Connections the key holds now, on every instance. */
  connectionsHeld(principal: StreamPrincipal): Promise<number> {
    return this.#limits.held(`stream-connections:${ownerOf(principal)}`);
  }
}
