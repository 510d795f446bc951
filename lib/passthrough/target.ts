import "server-only";
import { config } from "@/lib/config";
import { UnauthorizedError } from "@/lib/errors";
import type { Exchange } from "@/lib/venues/factory";
import type { MethodSpec } from "@/lib/venues/registry";
import type { PassthroughCaller, PassthroughResult } from "./call";
import { readFromCatalog } from "./catalog";
import { callerScope, type InstancePool } from "./instances";

/** Methods that open, feed or stop a venue stream: they run on the caller's own instance. */
export const streamingMethods = /^(watch|unwatch)/;

/** Where a call runs: answered already (close, a catalog read), or on an instance it may use. */
export type Target =
  | { kind: "answered"; result: PassthroughResult }
  | { kind: "instance"; use: <T>(run: (exchange: Exchange) => Promise<T>) => Promise<T> };

/**
 * Step 3 of a call: the instance it runs on. Shared, per key (mock), per credentials or per
 * watcher (lib/passthrough/instances.ts); a one-off instance for the router (it calls Brier's
 * catalog back with the caller's key) and for a forced reload; no instance at all when the
 * catalog answers a credential-less read, or for `close`.
 */
export async function pickInstance(
  pool: InstancePool,
  venue: string,
  spec: MethodSpec,
  args: unknown[],
  credentials: Record<string, unknown> | undefined,
  caller: PassthroughCaller,
): Promise<Target> {
  if (venue === "router") {
    const routerApiKey = caller.bearer;
    if (routerApiKey === undefined) {
      throw new UnauthorizedError("The router calls Brier's catalog with your API key: send 'Authorization: Bearer <key>'.");
    }
    const options = { routerApiKey, routerBaseUrl: `http://127.0.0.1:${config.port}` };
    return { kind: "instance", use: (run) => pool.once("router", options, run) };
  }
  const scope = callerScope(venue, caller.owner, credentials, streamingMethods.test(spec.name));
  if (spec.name === "close") {
    // close only ever closes the caller's own instances; the shared one stays open for everyone.
    // (the mock's close is a no-op upstream; its account is kept.)
    if (scope.kind === "credentials") await pool.drop(scope);
    await pool.drop({ kind: "watch", venue, owner: caller.owner });
    return { kind: "answered", result: { data: undefined, source: "live" } };
  }
  if (spec.name === "loadMarkets" && args[0] === true && scope.kind === "shared") {
    // A forced reload runs on a throwaway instance: other callers keep the shared cache.
    return { kind: "instance", use: (run) => pool.once(venue, {}, run) };
  }
  if (scope.kind === "shared" || scope.kind === "mock") {
    const fromCatalog = await readFromCatalog(venue, spec.name, args);
    if (fromCatalog !== undefined) return { kind: "answered", result: { data: fromCatalog, source: "catalog" } };
  }
  return { kind: "instance", use: (run) => pool.with(scope, run) };
}
