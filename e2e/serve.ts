/**
 * The e2e server: a fresh temporary DATA_DIR seeded offline with the admin CLI while no server
 * holds the stores (mock catalog through the catalog's ingest, synthetic ticks through
 * demo-ticks, which also closes and resolves two in five of the mock markets by their price paths,
 * docs/outcomes.md "The offline demo"; an enterprise analyst account and an operator), then `npm start`'s server (server.mjs) on it. Playwright starts this
 * and stops it; the data dir is removed on exit.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ANALYST, E2E_PORT, OPERATOR } from "./env";

// E2E_DATA_DIR (bench:web's BENCH_DATA_DIR): a data dir seeded once and kept, so that a benchmark
// can start a fresh server (nothing in its memory) several times on the same data without seeding again.
const keptDir = process.env.E2E_DATA_DIR;
const dataDir = keptDir === undefined || keptDir === "" ? mkdtempSync(path.join(tmpdir(), "brier-e2e-")) : keptDir;
const seededMark = path.join(dataDir, "e2e-seeded");
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATA_DIR: dataDir,
  NODE_ENV: "production",
  // Offline: no proxy may swallow loopback calls (docs/architecture.md, pitfall 11).
  HTTP_PROXY: "",
  HTTPS_PROXY: "",
  http_proxy: "",
  https_proxy: "",
  NEXTAUTH_URL: `http://127.0.0.1:${E2E_PORT}`,
  // Tests never call an external host: poll the offline mock venue, and Kalshi with every venue
  // call redirected to a closed loopback port, so it fails at once with a real ingestion error
  // (the catalog's "nothing ingested from this venue" state). No Polymarket: the recorder has no
  // token to subscribe to and opens no connection (the status page says why).
  // Limitless too: polled and failing, it stays the catalog's empty venue (Kalshi holds the
  // SYNTHETIC demo pair's market that demo-ticks writes, docs/spreads.md).
  CATALOG_VENUES: "mock,kalshi,limitless",
  VENUE_REDIRECT_URL: "http://127.0.0.1:9",
};

function admin(args: string[], input?: string): void {
  const started = Date.now();
  const result = spawnSync("npx", ["tsx", "--conditions=react-server", "scripts/admin.ts", ...args], {
    env,
    input,
    encoding: "utf8",
    stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
  });
  if (result.status !== 0) {
    process.stderr.write(result.stderr);
    throw new Error(`admin ${args[0]} failed with exit code ${String(result.status)}`);
  }
  process.stderr.write(`e2e seed: admin ${args.join(" ")} (${Date.now() - started} ms)\n`);
}

function cleanup(): void {
  if (dataDir !== keptDir) rmSync(dataDir, { recursive: true, force: true });
}

if (!existsSync(seededMark)) {
  mkdirSync(dataDir, { recursive: true });
  admin(["ingest", "--venue", "mock"]);
  // Two days of the demo's books by default; bench:web's pair-page timing may ask for more (E2E_DEMO_DAYS).
  admin(["demo-ticks", "--days", String(Number(process.env.E2E_DEMO_DAYS ?? 2) || 2)]);
  admin(["create-key", "--email", ANALYST.email, "--plan", "enterprise", "--name", "seed"]);
  admin(["set-password", "--email", ANALYST.email], `${ANALYST.password}\n`);
  admin(["create-key", "--email", OPERATOR.email, "--plan", "enterprise", "--name", "seed", "--operator"]);
  admin(["set-password", "--email", OPERATOR.email], `${OPERATOR.password}\n`);
  writeFileSync(seededMark, new Date().toISOString());
}

const server = spawn(process.execPath, ["server.mjs"], { env: { ...env, PORT: String(E2E_PORT), HOST: "127.0.0.1" }, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => server.kill(signal));
}
server.on("exit", (code) => {
  cleanup();
  process.exit(code ?? 0);
});
