import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_BASE_URL, E2E_PORT } from "./env";

/**
 * server.mjs's API front against Next alone, on the production build (no browser). Playwright's
 * web server (e2e/serve.ts) is `npm start`; beside it this spec starts `next start` on the same
 * build. /v0 and /api answers must come from the front (Next marks its own route-handler answers
 * with `Vary: rsc, …`) with the same status and body as Next alone; every other path (pages, auth,
 * unknown routes, trailing and doubled slashes, encoded and dot segments) must get exactly Next's
 * answer. Then the front is started on builds that lack what it relies on: it must serve
 * everything through Next and say so once.
 */

test.describe.configure({ mode: "serial" });

const distDir = process.env.NEXT_DIST_DIR || ".next";
const nextPort = Number(process.env.E2E_NEXT_PORT ?? E2E_PORT + 1);
const fallbackPort = Number(process.env.E2E_FALLBACK_PORT ?? E2E_PORT + 2);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** GET with the path sent exactly as written (fetch would normalise dot segments and encodings). */
function rawGet(port: number, rawPath: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path: rawPath, method: "GET", headers: { host: `127.0.0.1:${E2E_PORT}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

interface Server {
  child: ChildProcess;
  stderr: () => string;
  stop: () => Promise<void>;
}

/** Starts a server and waits until /v0/health answers (200, or any status when `anyStatus`). */
async function startServer(command: string[], port: number, env: Record<string, string>, anyStatus = false): Promise<Server> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "brier-e2e-front-"));
  const child = spawn(process.execPath, command, {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      BACKGROUND_JOBS: "false",
      CATALOG_VENUES: "mock",
      // Same public URL as the front's server, so auth answers (callback URLs) are comparable.
      NEXTAUTH_URL: E2E_BASE_URL,
      NEXTAUTH_SECRET: "e2e-front-comparison-secret-of-32-characters-or-more",
      HTTP_PROXY: "",
      HTTPS_PROXY: "",
      ...env,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${stderr}`);
    const answer = await rawGet(port, "/v0/health").catch(() => undefined);
    // Ready: 200, or with anyStatus whatever Next answers, but not the health route's 503 of a
    // store that has not answered its first probe yet (a fresh server under load).
    if (answer !== undefined && (answer.status === 200 || (anyStatus && answer.status !== 503))) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server on ${port} not answering in 90 s: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    child,
    stderr: () => stderr,
    stop: () =>
      new Promise((resolve) => {
        const done = () => {
          rmSync(dataDir, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null) return done();
        child.once("exit", done);
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
      }),
  };
}

const nextBin = path.join("node_modules", "next", "dist", "bin", "next");
const routeHandlerMarker = (answer: Answer) => String(answer.headers.vary ?? "").toLowerCase().includes("rsc");

/** What may legitimately differ between two servers: request ids, per-process tokens, dates and health probes' times. */
function comparable(answer: Answer): { status: number; type: string; location: string; body: string } {
  const body = answer.body
    .replace(/"requestId":"[^"]*"/g, '"requestId":"…"')
    .replace(/"csrfToken":"[^"]*"/g, '"csrfToken":"…"')
    .replace(/"timestamp":"[^"]*"/g, '"timestamp":"…"')
    .replace(/"checkedAt":"[^"]*","ageMs":\d+/g, '"checkedAt":"…","ageMs":…')
    // A store is "idle" until a request needs it in a server without background jobs (Next alone
    // here) and "ok" once open (the e2e server, whose jobs open it): both are a healthy store.
    .replace(/"(postgres|clickhouse)":"(?:ok|idle)"/g, '"$1":"up"');
  return {
    status: answer.status,
    type: String(answer.headers["content-type"] ?? ""),
    location: String(answer.headers.location ?? ""),
    body,
  };
}

let nextAlone: Server;

test.beforeAll(async () => {
  nextAlone = await startServer([nextBin, "start", "-p", String(nextPort), "-H", "127.0.0.1"], nextPort, {});
});

test.afterAll(async () => {
  await nextAlone?.stop();
});

// Paths the front answers: the JSON API (keyless requests, so both servers answer the same).
const frontPaths = [
  "/v0/health",
  "/v0/openapi.json",
  "/v0/markets",
  "/v0/markets?limit=abc",
  "/v0/markets/a%2Fb",
  "/v0/events/some-event",
  "/v0/nope",
  "/v0/mark%65ts", // a static segment matches only its literal text: the /v0 catch-all answers
  "/api/mock/fetchMarkets",
  "/api/mock/fetch%4Darkets",
  "/api/polymarket/fetchOrderBook?args=%5B%5D",
];

// Paths Next answers: pages, auth, unknown routes, trailing and doubled slashes, dot segments.
const nextPaths = [
  "/",
  "/signin",
  "/nope",
  "/settings",
  "/api/auth/providers",
  "/api/auth/session",
  "/api/auth/csrf",
  "/v0",
  "/v0/",
  "/v0/health/",
  "/v0//health",
  "/V0/health",
  "/v0/%2e%2e/api/mock/fetchMarkets",
  "/v0/./health",
  "/api/mock",
  "/api/mock/fetchMarkets/",
  "/api/mock/fetchMarkets/extra",
  "/api/nope/x/y",
  "/_next/static/missing.js",
  "/favicon.ico",
];

test("the front answers /v0 and /api exactly as Next alone would", async () => {
  for (const rawPath of frontPaths) {
    const [front, alone] = [await rawGet(E2E_PORT, rawPath), await rawGet(nextPort, rawPath)];
    expect(routeHandlerMarker(alone), `${rawPath}: Next alone marks its route-handler answers`).toBe(true);
    expect(routeHandlerMarker(front), `${rawPath}: answered by the front, not Next`).toBe(false);
    expect(comparable(front), rawPath).toEqual(comparable(alone));
  }
});

test("every other path gets exactly Next's answer", async () => {
  for (const rawPath of nextPaths) {
    const [front, alone] = [await rawGet(E2E_PORT, rawPath), await rawGet(nextPort, rawPath)];
    expect(comparable(front), rawPath).toEqual(comparable(alone));
  }
});

test("a /v0 or /api path that does not percent-decode is the API's JSON 400 (Next alone: its own error page)", async () => {
  // The one deliberate difference (lib/http/malformed.mjs): the API's clients get their surface's error body.
  for (const [rawPath, code] of [
    ["/v0/%E0%A4%A", "invalid_parameter"],
    ["/api/mock/fetch%zz", "VALIDATION_ERROR"],
  ] as const) {
    const [front, alone] = [await rawGet(E2E_PORT, rawPath), await rawGet(nextPort, rawPath)];
    expect(alone.status, rawPath).toBeGreaterThanOrEqual(400);
    expect(front.status, rawPath).toBe(400);
    expect(String(front.headers["content-type"])).toContain("application/json");
    expect(front.body).toContain(code);
  }
});

/** A copy of the build inside the project (Next resolves distDir relative to it), safe to break. */
function copyBuild(name: string): string {
  const copy = `${distDir}-${name}-${process.pid}`;
  cpSync(distDir, copy, { recursive: true });
  return copy;
}

for (const [name, breakBuild, reason] of [
  ["no-manifest", (dir: string) => rmSync(path.join(dir, "app-path-routes-manifest.json")), "route manifest"],
  [
    "no-ensure-userland",
    (dir: string) => {
      const file = path.join(dir, "server", "app", "v0", "openapi.json", "route.js");
      // A compiled route module whose routeModule lost ensureUserland (as a Next upgrade could do).
      const original = readFileSync(file, "utf8");
      rmSync(file);
      writeFileSync(file, `${original}\n;if (module.exports.routeModule) module.exports.routeModule.ensureUserland = undefined;\n`);
    },
    "ensureUserland",
  ],
] as const) {
  test(`a build without what the front relies on (${name}) is served entirely by Next, said once`, async () => {
    const copy = copyBuild(name);
    let server: Server | undefined;
    try {
      breakBuild(copy);
      server = await startServer(["server.mjs"], fallbackPort, { NEXT_DIST_DIR: copy }, true);
      for (const rawPath of ["/v0/health", "/v0/markets", "/api/mock/fetchMarkets", "/v0/account"]) {
        const answer = await rawGet(fallbackPort, rawPath);
        expect(routeHandlerMarker(answer), `${rawPath} answered by Next`).toBe(true);
        // Without its manifest Next itself routes no app path (404); with it, Next runs the handlers.
        if (name === "no-ensure-userland") expect(answer.status, rawPath).toBe(rawPath === "/v0/health" ? 200 : 401);
      }
      const notices = server.stderr().split("\n").filter((line) => line.includes("API front off"));
      expect(notices).toHaveLength(1);
      expect(notices[0]).toContain(reason);
    } finally {
      await server?.stop();
      rmSync(copy, { recursive: true, force: true });
    }
  });
}
