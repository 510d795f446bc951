import "server-only";
import { NetworkError } from "pmxt-core/dist/errors";
import { withDeadline } from "@/lib/async";
import { config } from "@/lib/config";
import { AppError } from "@/lib/errors";
import type { Exchange } from "@/lib/venues/factory";
import type { MethodSpec } from "@/lib/venues/registry";

/**
 * Step 4 of a call: the method on the instance, bounded by the venue deadline (the long-poll
 * deadline for watch*), and stopped waiting when the client goes away. A method the venue lacks
 * is 501 before anything runs.
 */
export async function callWithDeadline(exchange: Exchange, spec: MethodSpec, venue: string, args: unknown[], signal?: AbortSignal): Promise<unknown> {
  const capabilities = exchange.has as unknown as Record<string, unknown>;
  const fn = (exchange as unknown as Record<string, unknown>)[spec.name];
  if ((Object.hasOwn(capabilities, spec.name) && capabilities[spec.name] === false) || typeof fn !== "function") {
    throw new AppError("not_implemented", `Method '${spec.name}' is not supported by '${venue}'.`, { exchange: venue });
  }
  const timeout = spec.name.startsWith("watch") ? config.passthrough.watchTimeoutMs : config.venueTimeoutMs;
  const work = Promise.resolve().then(() => (fn as (...a: unknown[]) => Promise<unknown>).apply(exchange, args));
  // A long-poll that times out or loses its client leaves its subscription on the caller's own
  // watch instance; the pool closes that instance a minute after its last use.
  work.catch(() => undefined);
  return withDeadline(work, timeout, () => new NetworkError(`${venue} did not answer ${spec.name} within ${timeout} ms.`, venue), {
    signal,
    onAbort: () => new NetworkError("The client went away.", venue),
  });
}
