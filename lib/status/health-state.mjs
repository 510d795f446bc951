// The state the request thread shares with the health port's worker thread (lib/status/health-port.mjs):
// one Float64Array over a SharedArrayBuffer. Plain JavaScript so server.mjs, the worker and the
// bundled lib/status/health.ts read the same layout; no worker code here, so bundling it is plain.

import { processGlobals } from "../process-globals.mjs";

/**
 * Slots of the shared state (epoch ms, or 1/0 for a store's last answer; `startup` one of
 * STARTUP_PHASE).
 */
export const HEALTH_STATE = { loopBeatAt: 0, checkedAt: 1, postgres: 2, clickhouse: 3, startup: 4 };
export const HEALTH_STATE_SLOTS = 5;
/**
 * A store's last probe in its slot: not answering, answering, or an embedded engine not opened yet
 * (chDB is opened at its first use when no background job needs it: lib/jobs/background.ts).
 */
export const STORE_STATE = { unavailable: 0, ok: 1, idle: 2 };
/** Start-up work that would stall requests: none declared, some still running, all done. */
export const STARTUP_PHASE = { none: 0, pending: 1, done: 2 };
/** The request thread is not alive when it has not beaten for this long. */
export const LOOP_STALE_MS = 10_000;
/** The stores' last probe no longer vouches for them past this age (three missed 5-s probes). */
export const PROBE_STALE_MS = 15_000;

const slots = processGlobals();

/** The shared state when a health port runs in this process (lib/status/health.ts writes the probe into it). */
export function sharedHealthState() {
  return slots.__brierHealthState;
}

/** Makes the shared state and publishes it to this process. */
export function createHealthState() {
  const state = new Float64Array(new SharedArrayBuffer(HEALTH_STATE_SLOTS * Float64Array.BYTES_PER_ELEMENT));
  state[HEALTH_STATE.loopBeatAt] = Date.now();
  state[HEALTH_STATE.startup] = startupPhase();
  slots.__brierHealthState = state;
  return state;
}

// Start-up work (docs/architecture.md, "The embedded engines and the request thread"): the
// server.mjs front loading the API's route modules, the first catalog poll with its follow-ups, the
// recorder's start. Each is declared as a task; readiness (GET /v0/health and the health port's
// /ready) is false while any runs, so an orchestrator sends no traffic into those stalls. Kept on
// globalThis: server.mjs and the bundle each load their own copy of this module.
function startup() {
  slots.__brierStartup ??= { declared: false, pending: new Set() };
  return slots.__brierStartup;
}

function startupPhase() {
  const state = startup();
  if (!state.declared) return STARTUP_PHASE.none;
  return state.pending.size > 0 ? STARTUP_PHASE.pending : STARTUP_PHASE.done;
}

function publishStartup() {
  const shared = sharedHealthState();
  if (shared !== undefined) shared[HEALTH_STATE.startup] = startupPhase();
}

/**
 * The start-up task of the background jobs (lib/jobs/background.ts): declared by server.mjs before
 * it listens and by the jobs themselves, ended once the jobs have declared their own work.
 */
export const BACKGROUND_JOBS_TASK = "background jobs' start";

/**
 * Declares a piece of start-up work (a name already pending is the same task); returns the
 * function that marks it done (idempotent).
 */
export function startupTask(name) {
  const state = startup();
  state.declared = true;
  state.pending.add(name);
  publishStartup();
  return () => {
    state.pending.delete(name);
    publishStartup();
  };
}

/** The start-up work still running (empty once it is all done, or when none was declared). */
export function pendingStartup() {
  return [...startup().pending];
}

/** Withdraws `state` from this process (the health port closed). */
export function dropHealthState(state) {
  if (slots.__brierHealthState === state) slots.__brierHealthState = undefined;
}
