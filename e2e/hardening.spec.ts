import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_PORT } from "./env";

/**
 * Hardening against the production server (server.mjs on the build; no browser): every bad path and
 * method answers a JSON 4xx in its surface's error shape, and a server that cannot
 * take its data-dir lock exits non-zero at once with the reason instead of staying up.
 */

test.describe.configure({ mode: "serial" });

interface Answer {
  status: number;
  type: string;
  body: string;
}

/** A request with the path sent exactly as written (fetch would normalise it). */
function raw(method: string, rawPath: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port: E2E_PORT, path: rawPath, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"] ?? ""), body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const badPaths: Array<[method: string, path: string, status: number, surface: "v0" | "api"]> = [
  ["GET", "/v0/markets/%00", 400, "v0"],
  ["GET", "/v0/events/a%00b", 400, "v0"],
  ["GET", "/v0/markets/%zz", 400, "v0"],
  ["GET", "/v0/%", 400, "v0"],
  ["GET", "/v0/markets/%E0%A4%A", 400, "v0"],
  ["GET", "/api/%/x", 400, "api"],
  ["POST", "/api/mock/%00", 400, "api"],
  ["GET", "/api/mock/fetchMarkets%zz", 400, "api"],
  ["TRACE", "/v0/health", 405, "v0"],
  ["TRACE", "/api/mock/fetchMarkets", 405, "api"],
  ["TRACE", "/v0/markets/whatever", 405, "v0"],
];

for (const [method, rawPath, status, surface] of badPaths) {
  test(`${method} ${rawPath} answers ${status} as JSON in the ${surface} error shape`, async () => {
    const answer = await raw(method, rawPath);
    expect(answer.status, answer.body).toBe(status);
    expect(answer.type).toContain("application/json");
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    if (surface === "v0") {
      expect(body).toMatchObject({ error: { code: status === 405 ? "method_not_allowed" : "invalid_parameter" } });
    } else {
      expect(body).toMatchObject({ success: false, error: { code: status === 405 ? "BAD_REQUEST" : "VALIDATION_ERROR", retryable: false } });
    }
  });
}

test("a query-string NUL on a keyed route is refused before auth and storage", async () => {
  const answer = await raw("GET", "/v0/markets?q=%00");
  expect(answer.status).toBe(400);
  expect(JSON.parse(answer.body)).toMatchObject({ error: { code: "invalid_parameter", parameter: "q" } });
});

test("the server is healthy after the bad requests", async () => {
  const answer = await raw("GET", "/v0/health");
  expect(answer.status).toBe(200);
});

/** Starts server.mjs on the build with `env` and waits (60 s at most) for it to exit by itself. */
async function exitOfServer(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const child = spawn(process.execPath, ["server.mjs"], {
    env: { ...process.env, NODE_ENV: "production", PORT: String(E2E_PORT + 7), HOST: "127.0.0.1", BACKGROUND_JOBS: "false", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const started = Date.now();
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve(null);
    }, 60_000);
    child.on("exit", (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  return { code, stdout, stderr, ms: Date.now() - started };
}

test("a server that cannot take its data-dir lock exits non-zero at once, saying why", async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "brier-e2e-lock-"));
  // This test process plays the server already holding the embedded PGlite store.
  writeFileSync(path.join(dataDir, ".lock-pg"), String(process.pid));
  try {
    const { code, stdout, stderr, ms } = await exitOfServer({ DATA_DIR: dataDir });
    expect(code, `stdout: ${stdout}\nstderr: ${stderr}`).toBe(1);
    expect(stderr).toContain(`is in use by process ${process.pid}`);
    // Next runs instrumentation while the server starts, so "listening" may print first; the
    // process is gone within seconds, with no request needed, instead of staying up unhealthy.
    expect(ms).toBeLessThan(30_000);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("a server with an invalid configuration exits non-zero at once, naming the variable", async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "brier-e2e-config-"));
  try {
    const { code, stdout, stderr, ms } = await exitOfServer({ DATA_DIR: dataDir, RATE_LIMIT_PRO: "-1" });
    expect(code, `stdout: ${stdout}\nstderr: ${stderr}`).toBe(1);
    expect(stderr).toContain("Brier cannot start: Invalid configuration");
    expect(stderr).toContain("RATE_LIMIT_PRO");
    expect(ms).toBeLessThan(30_000);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
