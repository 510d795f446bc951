// The state the request thread shares with the health port's worker thread (lib/status/health-port.mjs):
// one Float64Array over a SharedArrayBuffer. Plain JavaScript so server.mjs, the worker and the
// bundled lib/status/health.ts read the same layout; no worker code here, so bundling it is plain.

/** Slots of the shared state (epoch ms, or 1/0 for a store's last answer). */
export const HEALTH_STATE = { loopBeatAt: 0, checkedAt: 1, postgres: 2, clickhouse: 3 };
export const HEALTH_STATE_SLOTS = 4;
/** The request thread is not alive when it has not beaten for this long. */
export const LOOP_STALE_MS = 10_000;
/** The stores' last probe no longer vouches for them past this age (three missed 5-s probes). */
export const PROBE_STALE_MS = 15_000;

const globalKey = "__brierHealthState";

/** The shared state when a health port runs in this process (lib/status/health.ts writes the probe into it). */
export function sharedHealthState() {
  return globalThis[globalKey];
}

/** Makes the shared state and publishes it to this process. */
export function createHealthState() {
  const state = new Float64Array(new SharedArrayBuffer(HEALTH_STATE_SLOTS * Float64Array.BYTES_PER_ELEMENT));
  state[HEALTH_STATE.loopBeatAt] = Date.now();
  globalThis[globalKey] = state;
  return state;
}

/** Withdraws `state` from this process (the health port closed). */
export function dropHealthState(state) {
  if (globalThis[globalKey] === state) delete globalThis[globalKey];
}
