// The production server (`npm start`): Next.js for pages, auth and everything else, with a thin
// node:http front for the JSON API (/v0/* and /api/:exchange/:method).
//
// Why: those routes are plain `(Request) => Response` handlers wrapped by lib/http, and Next's
// request pipeline (routing, rendering machinery, tracing) cost several times their own work:
// profiled under load, Next took ~27% of server CPU per pass-through call against 8.5% for all of
// Brier's code, and the same compiled handler served ~3x the requests (fetchOrderBook on mock:
// 649 -> 1,907 req/s) behind this front. The front calls the very route modules Next compiled (same bundle, same module
// instances), so behaviour is identical; anything it does not recognise goes to Next unchanged.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { Readable } from "node:stream";
import next from "next";
import nextConfig from "./next.config.mjs";

const port = Number.parseInt(process.env.PORT ?? "3000", 10);
const hostname = process.env.HOST || "0.0.0.0";
const dir = path.dirname(new URL(import.meta.url).pathname);
const distDir = path.join(dir, nextConfig.distDir ?? ".next");
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

function match(routes, pathname) {
  if (pathname.length > 1 && pathname.endsWith("/")) return undefined; // Next redirects these
  let parts;
  try {
    parts = pathname === "/" ? [] : pathname.split("/").slice(1).map(decodeURIComponent);
  } catch {
    return undefined;
  }
  for (const route of routes) {
    const params = matchSegments(route.segments, parts);
    if (params !== undefined) return route.fast ? { entry: route.entry, params } : undefined;
  }
  return undefined;
}

function matchSegments(segments, parts) {
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
    else if (segment !== part) return undefined;
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

/** The request's URL; a Host header that is not a valid authority falls back to localhost. */
function requestUrl(req) {
  try {
    return new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  } catch {
    return new URL(req.url ?? "/", "http://localhost");
  }
}

async function serveFast(handler, params, req, res) {
  const abort = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) abort.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const request = new Request(requestUrl(req), {
    method: req.method,
    headers,
    body: hasBody ? Readable.toWeb(req) : undefined,
    duplex: hasBody ? "half" : undefined,
    signal: abort.signal,
  });
  const response = await handler(request, { params: Promise.resolve(params) });
  const outgoing = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") outgoing[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) outgoing["set-cookie"] = cookies;
  outgoing["cache-control"] ??= "private, no-cache, no-store, max-age=0, must-revalidate";
  res.writeHead(response.status, outgoing);
  if (response.body === null || req.method === "HEAD") {
    res.end();
    return;
  }
  Readable.fromWeb(response.body).on("error", () => res.destroy()).pipe(res);
}

const app = next({ dev: false, dir, hostname, port });
const handleWithNext = app.getRequestHandler();
await app.prepare();
const routes = loadRoutes();
let frontDisabled = false;

async function handle(req, res) {
  const url = new URL(req.url ?? "/", "http://localhost");
  const found = frontDisabled ? undefined : match(routes, url.pathname);
  const exported = found === undefined ? undefined : await routeHandlers(found.entry);
  if (found !== undefined && exported === undefined && !frontDisabled) {
    frontDisabled = true;
    process.stderr.write('{"level":"warn","msg":"API front off: compiled route modules no longer expose their handlers; serving everything through Next"}\n');
  }
  const handler = exported?.[req.method ?? "GET"];
  if (typeof handler !== "function") return handleWithNext(req, res);
  return serveFast(handler, found.params, req, res);
}

const server = createServer((req, res) => {
  handle(req, res).catch((error) => {
    process.stderr.write(`${JSON.stringify({ level: "error", msg: "API front failed", error: String(error?.stack ?? error) })}\n`);
    if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { code: "internal_error", message: "Internal server error." } }));
  });
});

server.listen(port, hostname, () => {
  process.stdout.write(`Brier listening on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}\n`);
});
