import "server-only";
import { config } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { getKeyLimits, KeyCap } from "@/lib/limits";
import type { MethodSpec } from "@/lib/venues/registry";
import type { PassthroughCall, PassthroughResult } from "./call";
import { toVenueError } from "./errors";
import { readWithoutNetwork } from "./offline";
import { getDb } from "@/lib/db";
import { InstancePool } from "./instances";
import { callWithDeadline } from "./invoke";
import { assertRouterServes, resolveRoute } from "./route";
import { pickInstance } from "./target";
import { readArgs } from "./validate";

export type { PassthroughCall, PassthroughCaller, PassthroughInput, PassthroughResult } from "./call";

const pool = new InstancePool();

/** Venue calls one API key (or session) may have in flight, on every instance; one more answers 429 at once. */
const callerSlots = new KeyCap(
  "venue-calls",
  config.passthrough.maxConcurrentPerKey,
  (cap) => new AppError("rate_limited", `At most ${cap} venue calls may be in flight per API key; retry when one finishes.`, { retryAfter: 1 }),
  getKeyLimits,
);

/** The process's instance pool (status page, streams, tests). */
export function passthroughPool(): InstancePool {
  return pool;
}

/** Steps 1 and 2, everything that must hold before a venue is touched (also the streams' check). */
export function prepareCall(call: PassthroughCall): { spec: MethodSpec; args: unknown[]; credentials: Record<string, unknown> | undefined } {
  const spec = resolveRoute(call.exchange, call.method, call.input.kind);
  const { args, credentials } = readArgs(spec, call.input);
  assertRouterServes(call.exchange, spec);
  return { spec, args, credentials };
}

/**
 * One pass-through call, top to bottom: resolve the route (./route.ts) -> validate the args
 * (./validate.ts) -> pick the instance (./target.ts) -> call it with a deadline (./invoke.ts) ->
 * map the result, or what the venue threw (./errors.ts). The caller's in-flight cap is held
 * from step 3 on.
 */
export async function callVenueMethod(call: PassthroughCall): Promise<PassthroughResult> {
  const { spec, args, credentials } = prepareCall(call);
  const release = await callerSlots.acquire(call.caller.owner);
  try {
    const target = await pickInstance(pool, call.exchange, spec, args, credentials, call.caller);
    if (target.kind === "answered") return target.result;
    const data = await target.use((exchange) => callWithDeadline(exchange, spec, call.exchange, args, call.signal));
    return { data, source: "live" };
  } catch (error) {
    throw (await readWithoutNetwork(await getDb(), call.exchange, spec.name, credentials, error)) ?? toVenueError(error, call.exchange);
  } finally {
    release();
  }
}
