// The health port: liveness and readiness answered by a worker thread with its own event loop, so
// they answer while the request thread is saturated (a busy instance is alive; killing it helps no
// one). Plain JavaScript: server.mjs starts it before the bundle loads. The request thread shares
// its state through one SharedArrayBuffer: its own heartbeat (every 500 ms) and the stores' last
// background probe (written by lib/status/health.ts), laid out in ./health-state.mjs.
import { createServer } from "node:http";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { createHealthState, dropHealthState, HEALTH_STATE, LOOP_STALE_MS, PROBE_STALE_MS, STARTUP_PHASE, STORE_STATE } from "./health-state.mjs";

const BEAT_MS = 500;

/** What the health port answers for `path` given the shared state, at `now`. */
export function healthAnswer(path, state, now = Date.now()) {
  const loopAgeMs = Math.max(0, now - state[HEALTH_STATE.loopBeatAt]);
  const alive = loopAgeMs <= LOOP_STALE_MS;
  if (path === "/live") return { status: alive ? 200 : 503, body: { status: alive ? "ok" : "stalled", loopAgeMs } };
  if (path !== "/ready" && path !== "/v0/health") return { status: 404, body: { error: { code: "not_found", message: "The health port answers /live and /ready." } } };
  const checkedAt = state[HEALTH_STATE.checkedAt];
  const storeState = (slot) => (checkedAt === 0 ? "unknown" : (Object.keys(STORE_STATE).find((name) => STORE_STATE[name] === state[slot]) ?? "unavailable"));
  const stores = { postgres: storeState(HEALTH_STATE.postgres), clickhouse: storeState(HEALTH_STATE.clickhouse) };
  // An engine not opened yet (opened at its first use) is not a failing one.
  const serving = (store) => store === "ok" || store === "idle";
  const ageMs = checkedAt === 0 ? null : Math.max(0, now - checkedAt);
  // Start-up work that would stall requests still runs (lib/status/health-state.mjs, startupTask).
  const starting = state[HEALTH_STATE.startup] === STARTUP_PHASE.pending;
  const ready = alive && !starting && ageMs !== null && ageMs <= PROBE_STALE_MS && serving(stores.postgres) && serving(stores.clickhouse);
  return {
    status: ready ? 200 : 503,
    body: { status: ready ? "ok" : starting ? "starting" : "unavailable", stores, checkedAt: checkedAt === 0 ? null : new Date(checkedAt).toISOString(), ageMs, loopAgeMs },
  };
}

/**
 * Starts the health port on `port` (0: any free port) in a worker thread and the request thread's
 * heartbeat; resolves with the port it listens on and a close function.
 */
export function startHealthPort({ port, host = "0.0.0.0" }) {
  const state = createHealthState();
  const beat = setInterval(() => {
    state[HEALTH_STATE.loopBeatAt] = Date.now();
  }, BEAT_MS);
  beat.unref();
  const worker = new Worker(new URL(import.meta.url), { workerData: { port, host, state } });
  worker.unref();
  return new Promise((resolve, reject) => {
    worker.once("error", reject);
    worker.once("message", (message) => {
      if (message?.error !== undefined) {
        reject(new Error(`health port ${port}: ${message.error}`));
        return;
      }
      resolve({
        port: message.port,
        state,
        close: async () => {
          clearInterval(beat);
          dropHealthState(state);
          await worker.terminate();
        },
      });
    });
  });
}

if (!isMainThread && workerData?.state instanceof Float64Array) {
  const { port, host, state } = workerData;
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://health").pathname;
    const answer = request.method === "GET" || request.method === "HEAD" ? healthAnswer(path, state) : { status: 405, body: { error: { code: "method_not_allowed", message: "GET only." } } };
    const text = JSON.stringify(answer.body);
    response.writeHead(answer.status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), "cache-control": "no-store" });
    response.end(request.method === "HEAD" ? undefined : text);
  });
  server.on("error", (error) => parentPort?.postMessage({ error: error.message }));
  server.listen(port, host, () => {
    const address = server.address();
    parentPort?.postMessage({ port: typeof address === "object" && address !== null ? address.port : port });
  });
}
