import "server-only";
import { NetworkError } from "pmxt-core";
import { config } from "@/lib/config";
import { AppError, InvalidBodyError, NotFoundError, UnauthorizedError } from "@/lib/errors";
import { createExchange, type Exchange } from "@/lib/venues/factory";
import { findMethod, getVenueRegistry, isExchangeKey, type MethodSpec } from "@/lib/venues/registry";
import { readFromCatalog } from "./catalog";
import { toVenueError } from "./errors";
import { InstancePool, type InstanceScope } from "./instances";
import { queryToArgs } from "./query";
import { conform, validateArgs } from "./validate";

/** Who calls, as the pass-through needs it. */
export interface PassthroughCaller {
  /** Owner of per-caller instances: the API key id (or the account, for dashboard sessions). */
  owner: string;
  /** The caller's raw Brier key, only for the router (it calls Brier's catalog back with it). */
  bearer: string | undefined;
}

export type PassthroughInput =
  | { kind: "query"; query: URLSearchParams }
  | { kind: "body"; body: unknown };

export interface PassthroughCall {
  exchange: string;
  method: string;
  input: PassthroughInput;
  caller: PassthroughCaller;
  /** Aborted when the client goes away; a waiting long-poll then stops waiting. */
  signal?: AbortSignal;
}

export interface PassthroughResult {
  data: unknown;
  source: "live" | "catalog";
}

/** Methods that open, feed or stop a venue stream: they run on the caller's own instance. */
const streamingMethods = /^(watch|unwatch)/;

/**
 * Router methods Brier can answer: the ones backed by /v0/markets and /v0/events. The rest need
 * match/arbitrage endpoints Brier does not serve yet.
 */
const routerMethods = new Set([
  "loadMarkets",
  "fetchMarkets",
  "fetchMarketsPaginated",
  "fetchEvents",
  "fetchEventsPaginated",
  "fetchMarket",
  "fetchEvent",
  "filterMarkets",
  "filterEvents",
  "getExecutionPrice",
  "getExecutionPriceDetailed",
  "close",
]);

const pool = new InstancePool();
const inFlightByOwner = new Map<string, number>();

/** The process's instance pool (status page, tests). */
export function passthroughPool(): InstancePool {
  return pool;
}

function hasCredentials(credentials: Record<string, unknown> | undefined): credentials is Record<string, unknown> {
  return credentials !== undefined && Object.values(credentials).some((v) => typeof v === "string" && v !== "");
}

function readBody(body: unknown): { args: unknown; credentials: Record<string, unknown> | undefined } {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new InvalidBodyError("The body must be a JSON object: { \"args\": [...], \"credentials\"?: {...} }.");
  }
  const { args, credentials } = body as { args?: unknown; credentials?: unknown };
  if (credentials === undefined || credentials === null) return { args: args ?? [], credentials: undefined };
  const schemas = getVenueRegistry().schemas;
  const checked = conform(credentials, { $ref: "#/components/schemas/ExchangeCredentials" }, schemas, "credentials");
  return { args: args ?? [], credentials: checked as Record<string, unknown> };
}

function scopeFor(exchange: string, method: string, caller: PassthroughCaller, credentials: Record<string, unknown> | undefined): InstanceScope {
  if (exchange === "mock") return { kind: "mock", owner: caller.owner };
  if (hasCredentials(credentials)) return { kind: "credentials", venue: exchange, owner: caller.owner, credentials };
  if (streamingMethods.test(method)) return { kind: "watch", venue: exchange, owner: caller.owner };
  return { kind: "shared", venue: exchange };
}

/** Resolves, rejects with the venue's error, or rejects with NetworkError after `ms` or when `signal` aborts. */
function bounded<T>(work: Promise<T>, ms: number, venue: string, what: string, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new NetworkError(`${venue} did not answer ${what} within ${ms} ms.`, venue)), ms);
    const onAbort = () => reject(new NetworkError("The client went away.", venue));
    signal?.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    });
  });
}

async function invoke(exchange: Exchange, spec: MethodSpec, venue: string, args: unknown[], signal?: AbortSignal): Promise<unknown> {
  const capabilities = exchange.has as unknown as Record<string, unknown>;
  if (Object.hasOwn(capabilities, spec.name) && capabilities[spec.name] === false) {
    throw new AppError("not_implemented", `Method '${spec.name}' is not supported by '${venue}'.`, { exchange: venue });
  }
  const fn = (exchange as unknown as Record<string, unknown>)[spec.name];
  if (typeof fn !== "function") {
    throw new AppError("not_implemented", `Method '${spec.name}' is not supported by '${venue}'.`, { exchange: venue });
  }
  const streaming = streamingMethods.test(spec.name) && spec.name.startsWith("watch");
  const timeout = streaming ? config.passthrough.watchTimeoutMs : config.venueTimeoutMs;
  const work = Promise.resolve().then(() => (fn as (...a: unknown[]) => Promise<unknown>).apply(exchange, args));
  // A long-poll that times out or loses its client leaves its subscription on the caller's own
  // watch instance; the pool closes that instance a minute after its last use.
  work.catch(() => undefined);
  return bounded(work, timeout, venue, spec.name, signal);
}

async function acquireSlot(owner: string): Promise<() => void> {
  const current = inFlightByOwner.get(owner) ?? 0;
  const cap = config.passthrough.maxConcurrentPerKey;
  if (current >= cap) {
    throw new AppError("rate_limited", `At most ${cap} venue calls may be in flight per API key; retry when one finishes.`, {
      retryAfter: 1,
    });
  }
  inFlightByOwner.set(owner, current + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (inFlightByOwner.get(owner) ?? 1) - 1;
    if (left <= 0) inFlightByOwner.delete(owner);
    else inFlightByOwner.set(owner, left);
  };
}

/** Everything that must hold before a venue is touched: exchange, method, verb, args, credentials. */
export function prepareCall(call: PassthroughCall): { spec: MethodSpec; args: unknown[]; credentials: Record<string, unknown> | undefined } {
  if (!isExchangeKey(call.exchange)) throw new NotFoundError("exchange", call.exchange);
  const spec = findMethod(call.method);
  if (spec === undefined) throw new NotFoundError("method", call.method);
  let rawArgs: unknown;
  let credentials: Record<string, unknown> | undefined;
  if (call.input.kind === "query") {
    if (spec.verb !== "get") {
      throw new AppError("method_not_allowed", `Method '${spec.name}' is not available via GET; use POST /api/${call.exchange}/${spec.name}.`);
    }
    rawArgs = queryToArgs(spec, call.input.query);
  } else {
    ({ args: rawArgs, credentials } = readBody(call.input.body));
  }
  const args = validateArgs(spec, rawArgs, getVenueRegistry().schemas);
  if (call.exchange === "router" && !routerMethods.has(spec.name)) {
    throw new AppError(
      "not_implemented",
      `router.${spec.name} needs match or arbitrage endpoints that Brier does not serve yet; router answers catalog reads (${[...routerMethods].join(", ")}).`,
      { exchange: "router" },
    );
  }
  return { spec, args, credentials };
}

/**
 * Runs one pass-through call: validate, pick the instance (shared, per key, per credentials,
 * per watcher), cap the caller's concurrency, bound the time, and map what the venue threw.
 */
export async function callVenueMethod(call: PassthroughCall): Promise<PassthroughResult> {
  const { spec, args, credentials } = prepareCall(call);
  const venue = call.exchange;
  const release = await acquireSlot(call.caller.owner);
  try {
    if (venue === "router") {
      if (call.caller.bearer === undefined) {
        throw new UnauthorizedError("The router calls Brier's catalog with your API key: send 'Authorization: Bearer <key>'.");
      }
      const router = createExchange("router", {
        routerApiKey: call.caller.bearer,
        routerBaseUrl: `http://127.0.0.1:${config.port}`,
      });
      return { data: await invoke(router, spec, venue, args, call.signal), source: "live" };
    }

    const scope = scopeFor(venue, spec.name, call.caller, credentials);
    if (spec.name === "close") {
      // close only ever closes the caller's own instances; the shared one stays open for everyone.
      // (the mock's close is a no-op upstream; its account is kept.)
      if (scope.kind === "credentials") await pool.drop(scope);
      await pool.drop({ kind: "watch", venue, owner: call.caller.owner });
      return { data: undefined, source: "live" };
    }
    if (spec.name === "loadMarkets" && args[0] === true && scope.kind === "shared") {
      // A forced reload runs on a throwaway instance: other callers keep the shared cache.
      const fresh = createExchange(venue);
      try {
        return { data: await invoke(fresh, spec, venue, args, call.signal), source: "live" };
      } finally {
        await fresh.close().catch(() => undefined);
      }
    }
    if (scope.kind === "shared" || scope.kind === "mock") {
      const fromCatalog = await readFromCatalog(venue, spec.name, args);
      if (fromCatalog !== undefined) return { data: fromCatalog, source: "catalog" };
    }
    const data = await pool.with(scope, (exchange) => invoke(exchange, spec, venue, args, call.signal));
    return { data, source: "live" };
  } catch (error) {
    throw toVenueError(error, venue);
  } finally {
    release();
  }
}
