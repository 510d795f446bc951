// The production server (`npm start`): Next.js for pages, auth and everything else, with a thin
// node:http front for the JSON API (/v0/* and /api/:exchange/:method).
//
// Why: those routes are handlers wrapped by lib/http, and Next's
// request pipeline (routing, rendering machinery, tracing) cost several times their own work:
// profiled under load, Next took ~27% of server CPU per pass-through call against 8.5% for all of
// Brier's code, and the same compiled handler served ~3x the requests (fetchOrderBook on mock:
// 649 -> 1,907 req/s) behind this front. The front calls the very route modules Next compiled (same bundle, same module
// instances), so behaviour is identical; anything it does not recognise goes to Next unchanged.
// Wrapped routes are called through the entry their wrapper attaches, with Node's request and no
// Web Request or Response (lib/http/serve.mjs, lib/http/front.ts).
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import next from "next";
import { recordClientAbort, watchClientGone } from "./lib/client-aborts.mjs";
import { internalErrorBody, surfaceOf } from "./lib/http/error-body.mjs";
import { refuseMalformedRequest } from "./lib/http/malformed.mjs";
import { requestUrl, serveRoute } from "./lib/http/serve.mjs";
import { createTurnQueue, refuseAtCapacity } from "./lib/http/turns.mjs";
import { requiredSettingProblems, serverSettings } from "./lib/server-settings.mjs";
import { settleHeapAfterStartup } from "./lib/status/settle-heap.mjs";
import { startHealthPort } from "./lib/status/health-port.mjs";
import { BACKGROUND_JOBS_TASK, startupTask } from "./lib/status/health-state.mjs";

// Every setting this process needs is checked before it listens: a bad one stops it, named (README, "Configuration").
const settings = (() => {
  try {
    const problems = requiredSettingProblems();
    if (problems.length > 0) throw new Error(`Invalid configuration:\n  ${problems.join("\n  ")}`);
    return serverSettings();
  } catch (error) {
    process.stderr.write(`Brier cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
})();
const { port, hostname } = settings;
const dir = path.dirname(new URL(import.meta.url).pathname);
const distDir = path.join(dir, settings.distDir);
const require = createRequire(import.meta.url);

/** Routes served by the front: every /v0 route, and the venue pass-through. */
const fastRoute = (route) => route.startsWith("/v0/") || route === "/api/[exchange]/[method]";

/**
 * Every app route from Next's own manifest (pages included), in Next's precedence (static
 * segments before dynamic ones before catch-alls). The front answers a path only when the route
 * Next would pick for it is one of the API's route handlers.
 */
function loadRoutes() {
  const manifest = JSON.parse(readFileSync(path.join(distDir, "app-path-routes-manifest.json"), "utf8"));
  const routes = Object.entries(manifest).map(([entry, route]) => ({
    entry,
    segments: route.split("/").slice(1).filter((segment) => segment !== ""),
    fast: entry.endsWith("/route") && fastRoute(route),
  }));
  const rank = (segment) => (segment.startsWith("[...") ? 2 : segment.startsWith("[") ? 1 : 0);
  routes.sort((a, b) => {
    for (let i = 0; i < Math.max(a.segments.length, b.segments.length); i += 1) {
      const diff = rank(a.segments[i] ?? "") - rank(b.segments[i] ?? "");
      if (diff !== 0) return diff;
    }
    return b.segments.length - a.segments.length;
  });
  return routes;
}

/**
 * The API route Next would pick for a raw request path (as sent: not normalised, not decoded), or
 * undefined for anything the front should not answer. Like Next, a static segment matches only its
 * literal text (`/v0/mark%65ts` is not `/v0/markets`) and dynamic values are percent-decoded. Paths
 * Next rewrites before routing (trailing or doubled slashes, dot segments, backslashes) and
 * undecodable ones are Next's to answer.
 */
function match(routes, rawPath) {
  if (!rawPath.startsWith("/") || rawPath.includes("\\")) return undefined;
  if (rawPath.length > 1 && rawPath.endsWith("/")) return undefined; // Next redirects these
  const raw = rawPath === "/" ? [] : rawPath.split("/").slice(1);
  let parts;
  try {
    parts = raw.map(decodeURIComponent);
  } catch {
    return undefined;
  }
  if (raw.includes("") || parts.some((part) => part === "." || part === "..")) return undefined;
  for (const route of routes) {
    const params = matchSegments(route.segments, raw, parts);
    if (params !== undefined) return route.fast ? { entry: route.entry, params } : undefined;
  }
  return undefined;
}

function matchSegments(segments, raw, parts) {
  const params = {};
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i];
    if (segment.startsWith("[...")) {
      const rest = parts.slice(i);
      if (rest.length === 0 || rest.includes("")) return undefined;
      params[segment.slice(4, -1)] = rest;
      return params;
    }
    const part = parts[i];
    if (part === undefined || part === "") return undefined;
    if (segment.startsWith("[")) params[segment.slice(1, -1)] = part;
    else if (segment !== raw[i]) return undefined;
  }
  return parts.length === segments.length ? params : undefined;
}

const handlers = new Map();

/**
 * The route's exported handlers (GET, POST, ...), from the module Next compiled, loaded the way
 * Next loads them; undefined if that interface moved in a Next upgrade.
 */
function routeHandlers(entry) {
  if (!handlers.has(entry)) {
    const load = async () => {
      const routeModule = require(path.join(distDir, "server", "app", `${entry}.js`))?.routeModule;
      if (typeof routeModule?.ensureUserland !== "function") return undefined;
      await routeModule.ensureUserland();
      return routeModule.userland;
    };
    handlers.set(entry, load().catch(() => undefined));
  }
  return handlers.get(entry);
}

// Not ready until every API route's module is loaded (below): a route's first use loads its module
// graph (pmxt-core, the matching models) on this thread, seconds in which nothing else is answered.
const routesLoaded = startupTask("API route modules");
// Ended by lib/jobs/background.ts once its start-up work is declared: Next may run instrumentation's
// register() after this server starts listening, and readiness must not pass in between.
startupTask(BACKGROUND_JOBS_TASK);
// Last: once every other start-up task is done, V8 gives back what start-up left committed (~95 MB
// of young generation and garbage, lib/status/settle-heap.mjs), before readiness, so no request waits on that GC.
void settleHeapAfterStartup().then((heap) => {
  if (!settings.logsInfo) return;
  const msg = heap.settled ? "V8 heap settled after start-up" : "V8 heap not settled after start-up (no memory-reducing GC in time)";
  process.stdout.write(`${JSON.stringify({ level: "info", msg, committedMb: [heap.beforeMb, heap.afterMb], ms: heap.ms })}\n`);
});

// Liveness and readiness on their own port, from a worker thread: they answer while this thread is saturated.
if (settings.healthPort !== undefined) {
  const health = await startHealthPort({ port: settings.healthPort, host: hostname });
  process.stdout.write(`Brier health port on ${hostname === "0.0.0.0" ? "localhost" : hostname}:${health.port} (/live, /ready)\n`);
}

const app = next({ dev: false, dir, hostname, port });
const handleWithNext = app.getRequestHandler();
await app.prepare();

// The front relies on two Next internals: the route manifest and `routeModule.ensureUserland()`
// of each compiled API route. Both are checked here, at start: if either is missing (a Next
// upgrade moved them), every request goes through Next, slower but correct, and the log says so once.
let frontDisabled = false;
function disableFront(reason) {
  if (frontDisabled) return;
  frontDisabled = true;
  process.stderr.write(`${JSON.stringify({ level: "warn", msg: `API front off: ${reason}; serving everything through Next` })}\n`);
}
let routes = [];
try {
  routes = loadRoutes();
} catch (error) {
  disableFront(`cannot read Next's route manifest (${error?.code ?? error?.message ?? error})`);
}
for (const route of routes) {
  if (frontDisabled || !route.fast) continue;
  try {
    const routeModule = require(path.join(distDir, "server", "app", `${route.entry}.js`))?.routeModule;
    if (typeof routeModule?.ensureUserland !== "function") disableFront(`${route.entry} has no routeModule.ensureUserland()`);
  } catch (error) {
    disableFront(`cannot load the compiled ${route.entry} (${error?.code ?? error?.message ?? error})`);
  }
}

/** The route pattern of an entry (`/v0/markets/[id]/route` -> `/v0/markets/[id]`): what aborts are counted by. */
const routeOf = (entry) => entry.replace(/\/route$/, "");

/** Serves a request; resolves with the API route it went to (undefined when Next answered it). */
// Every API route's module loaded now, before the first request (measured: the first minute's
// first stall was these loads, docs/performance.md).
await Promise.all(routes.filter((route) => route.fast && !frontDisabled).map((route) => routeHandlers(route.entry)));
routesLoaded();

async function handle(req, res, served) {
  if (refuseMalformedRequest(req, res)) return; // bad paths and methods: JSON 4xx on the API surfaces
  const rawPath = (req.url ?? "/").split("?", 1)[0] ?? "/";
  const found = frontDisabled ? undefined : match(routes, rawPath);
  const exported = found === undefined ? undefined : await routeHandlers(found.entry);
  if (found !== undefined && exported === undefined) disableFront("compiled route modules no longer expose their handlers");
  const handler = exported?.[req.method ?? "GET"];
  if (typeof handler !== "function") return handleWithNext(req, res);
  served.route = routeOf(found.entry);
  // The client left while the request waited for its turn: nothing to answer, nothing to run.
  if (req.socket?.destroyed === true) return;
  return serveRoute(handler, found.params, req, res);
}

/**
 * Requests waiting for their turn (lib/http/turns.mjs): each starts in an event-loop turn of its
 * own. 1,024 waiting is five times the crowd of the load bench; past it a request is refused at
 * once with 503 and Retry-After rather than held.
 */
const TURN_QUEUE_LIMIT = 1024;
const turns = createTurnQueue({ limit: TURN_QUEUE_LIMIT });
/** Readiness and liveness are answered when they arrive, never queued behind the crowd they are asked about. */
const probePaths = new Set(["/v0/health", "/v0/health/live"]);

const server = createServer((req, res) => {
  const startedAt = performance.now();
  const goneAt = watchClientGone(res);
  if (probePaths.has((req.url ?? "/").split("?", 1)[0] ?? "/")) return void serve(req, res, startedAt, goneAt);
  if (!turns.push(() => serve(req, res, startedAt, goneAt))) refuseAtCapacity(surfaceOf(requestUrl(req).pathname), res);
});

/** Serves a request that arrived at `startedAt`; `goneAt` tells when its client left, if it did (watched from arrival). */
function serve(req, res, startedAt, goneAt) {
  const served = { route: undefined };
  // A client that left before its answer was written is counted and logged at info, never as a failure (docs/performance.md).
  const noteAbort = () => {
    const at = goneAt();
    if (served.route === undefined || at === undefined) return false;
    recordClientAbort({ route: served.route, method: req.method ?? "GET", elapsedMs: at - startedAt, quiet: !settings.logsInfo });
    return true;
  };
  handle(req, res, served).then(noteAbort, (error) => {
    if (noteAbort()) return;
    // Answered in the body shape of the request's surface (/v0 or pmxt's /api envelope), decided in lib/http/error-body.mjs.
    const requestId = randomUUID();
    process.stderr.write(`${JSON.stringify({ level: "error", msg: "API front failed", requestId, error: String(error?.stack ?? error) })}\n`);
    if (!res.headersSent) res.writeHead(500, { "content-type": "application/json", "x-request-id": requestId });
    res.end(JSON.stringify(internalErrorBody(surfaceOf(requestUrl(req).pathname), requestId)));
  });
}

// WebSocket upgrades: /ws (pmxt's streaming protocol) is served by the handler the compiled
// app/ws route module exports as `upgrade` (route handlers cannot upgrade; see docs/streams.md).
// Next adds an 'upgrade' listener of its own at its first request, which ends any upgrade it does
// not route: it keeps every other path, never /ws.
const isStreamUpgrade = (req) => requestUrl(req).pathname === "/ws";
const serverOn = server.on.bind(server);
server.on = server.addListener = (event, listener) =>
  serverOn(event, event !== "upgrade" ? listener : (req, socket, head) => (isStreamUpgrade(req) ? undefined : listener(req, socket, head)));
serverOn("upgrade", (req, socket, head) => {
  if (!isStreamUpgrade(req)) {
    if (server.listenerCount("upgrade") === 1) socket.destroy(); // no listener of Next's to answer it
    return;
  }
  routeHandlers("/ws/route")
    .then((exported) => {
      if (typeof exported?.upgrade === "function") exported.upgrade(req, socket, head);
      else socket.destroy();
    })
    .catch(() => socket.destroy());
});

server.listen(port, hostname, () => {
  process.stdout.write(`Brier listening on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}\n`);
});
