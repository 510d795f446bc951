import "server-only";
import { sql } from "drizzle-orm";
import { withDeadline } from "@/lib/async";
import { getDb } from "@/lib/db";
import { ServiceUnavailableError } from "@/lib/errors";
import { getTickStores, tickStoresOpened } from "@/lib/ticks";
import { HEALTH_STATE, pendingStartup, PROBE_STALE_MS, sharedHealthState, STORE_STATE } from "./health-state.mjs";
import { processGlobals } from "@/lib/process-globals.mjs";

/**
 * Readiness answers from the stores' last probe, taken in the background every few seconds, and
 * never waits behind user work: probing both stores on the request path put health in the queue
 * behind user SQL on the same two cores, and a health check that fails under load gets a healthy
 * instance killed. Liveness (`GET /v0/health/live`) touches no store at all. Both still need the
 * request thread's event loop to turn; the health port (HEALTH_PORT, lib/status/health-port.mjs)
 * answers from a worker thread, so it answers while that loop is saturated.
 */

/** How often the stores are probed. */
export const HEALTH_PROBE_INTERVAL_MS = 5_000;
const PROBE_DEADLINE_MS = 3_000;
/** A last probe older than this no longer speaks for the stores: the probing itself is stuck (three missed probes). */
export const HEALTH_STALE_AFTER_MS = PROBE_STALE_MS;

/** `idle`: an embedded engine this process has not opened yet (opened at its first use); not a failure. */
type StoreState = keyof typeof STORE_STATE;

/** What a probe returns for a store it did not touch because it is not open (and opening it is what a probe must not do). */
export const STORE_IDLE = Symbol("store not opened");

export interface HealthSnapshot {
  /** When the probe finished, epoch ms. */
  checkedAt: number;
  stores: Record<string, StoreState>;
}

type Probes = Record<string, () => Promise<unknown>>;

async function probe(check: () => Promise<unknown>): Promise<StoreState> {
  try {
    const answer = await withDeadline(check(), PROBE_DEADLINE_MS, () => new Error("timed out"));
    return answer === STORE_IDLE ? "idle" : "ok";
  } catch {
    return "unavailable";
  }
}

/** Probes the stores on a timer and keeps the last result. */
export class HealthMonitor {
  #last: HealthSnapshot | undefined;
  #probing: Promise<HealthSnapshot> | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly probes: Probes,
    private readonly intervalMs = HEALTH_PROBE_INTERVAL_MS,
    /** Told every probe's result (the health port's shared state, lib/status/health-port.mjs). */
    private readonly onProbe?: (snapshot: HealthSnapshot) => void,
  ) {}

  /** Starts the background probe (idempotent); the timer never keeps the process alive. */
  start(): void {
    if (this.#timer !== undefined) return;
    void this.probeNow();
    this.#timer = setInterval(() => void this.probeNow(), this.intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Probes every store at once; a probe already running is joined, not doubled. */
  probeNow(): Promise<HealthSnapshot> {
    this.#probing ??= (async () => {
      const names = Object.keys(this.probes);
      const states = await Promise.all(names.map((name) => probe(this.probes[name] ?? (async () => undefined))));
      const snapshot = { checkedAt: Date.now(), stores: Object.fromEntries(names.map((name, i) => [name, states[i] ?? "unavailable"])) };
      this.#last = snapshot;
      this.onProbe?.(snapshot);
      return snapshot;
    })().finally(() => {
      this.#probing = undefined;
    });
    return this.#probing;
  }

  /**
   * The last probe's result. It waits for a probe only before the first one, or when the last is
   * older than the stale limit: the timer could not run (a serverless instance frozen between
   * calls, an event loop blocked for that long), so no background result speaks for the stores.
   */
  async latest(now = Date.now()): Promise<HealthSnapshot> {
    this.start();
    const last = this.#last;
    if (last === undefined || now - last.checkedAt > HEALTH_STALE_AFTER_MS) return await this.probeNow();
    return last;
  }
}

/** Writes a probe into the health port's shared state, when the server runs one (HEALTH_PORT). */
function publishToHealthPort(snapshot: HealthSnapshot): void {
  const state = sharedHealthState();
  if (state === undefined) return;
  state[HEALTH_STATE.postgres] = STORE_STATE[snapshot.stores.postgres ?? "unavailable"];
  state[HEALTH_STATE.clickhouse] = STORE_STATE[snapshot.stores.clickhouse ?? "unavailable"];
  state[HEALTH_STATE.checkedAt] = snapshot.checkedAt;
}

const globalStore = processGlobals<{ __brierHealth?: HealthMonitor }>();

/** The process's monitor of PostgreSQL (or PGlite) and ClickHouse (or chDB). */
export function healthMonitor(): HealthMonitor {
  globalStore.__brierHealth ??= new HealthMonitor(
    {
      postgres: async () => (await getDb()).execute(sql`select 1`),
      // Never opens an embedded engine the process has not needed yet (lib/jobs/background.ts): that is ~200 MB resident for nothing.
      clickhouse: async () => (tickStoresOpened() ? (await getTickStores()).writer.query({ query: "SELECT 1", format: "JSONEachRow" }) : STORE_IDLE),
    },
    HEALTH_PROBE_INTERVAL_MS,
    publishToHealthPort,
  );
  return globalStore.__brierHealth;
}

/**
 * GET /v0/health (readiness): the last probe's states, when it was taken and its age; 503 naming
 * the store that did not answer it, or the start-up work still running.
 */
export async function readiness(monitor: HealthMonitor = healthMonitor(), now = Date.now()) {
  // Not ready while start-up work that would stall requests runs (lib/jobs/background.ts, server.mjs).
  const starting = pendingStartup();
  if (starting.length > 0) throw new ServiceUnavailableError(`Starting: ${starting.join(", ")}.`, { startup: starting });
  const snapshot = await monitor.latest(now);
  const ageMs = Math.max(0, Date.now() - snapshot.checkedAt);
  const checkedAt = new Date(snapshot.checkedAt).toISOString();
  const down = Object.entries(snapshot.stores).filter(([, state]) => state === "unavailable").map(([name]) => name);
  if (down.length > 0) throw new ServiceUnavailableError(`Not answering: ${down.join(", ")}.`, { stores: snapshot.stores, checkedAt, ageMs });
  return { status: "ok" as const, stores: snapshot.stores, checkedAt, ageMs };
}
