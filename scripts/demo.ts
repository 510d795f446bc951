/**
 * `npm run demo`: one command from a fresh clone to a working demo (README, "Quick start").
 *
 * 1. builds the dashboard when there is no build or the sources changed since it was made;
 * 2. `admin demo-setup`: the mock catalog, the demo history (`admin demo-ticks`), an operator
 *    account with a password and an enterprise key, all reused when an earlier run made them;
 * 3. starts the service (`server.mjs`, as `npm start` does) and, once it answers, prints the URL,
 *    the email, the password and the key.
 *
 * This process stays small while the server runs (it opens no store: step 2 runs in its own
 * process, or in the running server over the admin channel) and passes Ctrl-C on to the server.
 * With a server already holding this DATA_DIR it starts nothing: it prints the credentials.
 */
import { spawn, spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { config } from "@/lib/config";
import { readChannel } from "@/lib/operator/channel-client";
import { serverSettings } from "@/lib/server-settings.mjs";
import { say } from "./lib/cli";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const settings = serverSettings();
// `--days N`: the length of the demo history on its first run (default 7).
const { values: flags } = parseArgs({ options: { days: { type: "string" } }, strict: true });

/** What the build is made from: a change here after the last build means the build is stale. */
const buildInputs = ["app", "components", "lib", "instrumentation.ts", "instrumentation-node.ts", "next.config.mjs", "package.json"];

function newestSource(file: string): number {
  const stats = statSync(file);
  if (!stats.isDirectory()) return /\.test\.tsx?$/.test(file) ? 0 : stats.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(file)) newest = Math.max(newest, newestSource(path.join(file, entry)));
  return newest;
}

function buildIsCurrent(): boolean {
  const buildId = path.join(root, settings.distDir, "BUILD_ID");
  if (!existsSync(buildId)) return false;
  const built = statSync(buildId).mtimeMs;
  return buildInputs.every((input) => !existsSync(path.join(root, input)) || newestSource(path.join(root, input)) <= built);
}

function run(command: string, args: string[], capture: boolean, env: NodeJS.ProcessEnv = process.env): { code: number; stdout: string } {
  const result = spawnSync(command, args, { cwd: root, env, encoding: "utf8", stdio: ["ignore", capture ? "pipe" : "inherit", "inherit"] });
  return { code: result.status ?? 1, stdout: result.stdout ?? "" };
}

const localUrl = () => `http://${settings.hostname === "0.0.0.0" || settings.hostname === "::" ? "localhost" : settings.hostname}:${settings.port}`;

function banner(credentials: { email: string; password: string; key: string }, url: string): string {
  return [
    "",
    `Brier demo: ${url}`,
    "",
    `  Dashboard   ${url}   sign in as ${credentials.email}`,
    `  Password    ${credentials.password}`,
    `  API key     ${credentials.key}`,
    "",
    "  Try it:",
    `    KEY=${credentials.key}`,
    `    curl -s -H "Authorization: Bearer $KEY" "${url}/v0/markets?exchange=mock&limit=3"`,
    `    curl -s -H "Authorization: Bearer $KEY" "${url}/v0/orderbooks/mock-m34-yes?depth=3"`,
    "",
    "  The order-book and price history of the mock markets is SYNTHETIC (a simulated book per outcome).",
    "  The admin CLI works beside the running server: npm run --silent admin -- help",
    "  Ctrl-C stops the server; `npm run demo` again starts it on the same data and credentials.",
    "",
  ].join("\n");
}

async function waitUntilServing(url: string, server: ReturnType<typeof spawn>): Promise<boolean> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (server.exitCode !== null) return false;
    try {
      const res = await fetch(`${url}/v0/health`);
      if (res.status === 200) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}

async function main(): Promise<number> {
  const running = readChannel(config.dataDir);
  if (running === undefined && !buildIsCurrent()) {
    say(`Building the dashboard (${settings.distDir}; once, and again after the sources change)…`);
    if (run("npx", ["next", "build"], false).code !== 0) return 1;
  }
  say(running === undefined ? `Preparing the demo data in ${config.dataDir}…` : `A server (process ${running.pid}) holds ${config.dataDir}: preparing the demo through it…`);
  const setup = run(process.execPath, ["--import", "tsx", "--conditions=react-server", "scripts/admin.ts", "demo-setup", ...(flags.days === undefined ? [] : ["--days", flags.days])], true, {
    ...process.env,
    // The steps' progress reads better without the service's JSON log lines between them.
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
  });
  if (setup.code !== 0) return setup.code;
  const credentials = JSON.parse(setup.stdout.trim().split("\n").pop() ?? "{}") as { email: string; password: string; key: string };
  if (running !== undefined) {
    say(`${banner(credentials, localUrl())}  (Already running as process ${running.pid}; the URL assumes it was started with this PORT and HOST.)\n`);
    return 0;
  }
  const server = spawn(process.execPath, ["--max-semi-space-size=64", "server.mjs"], { cwd: root, env: process.env, stdio: "inherit" });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  const exited = new Promise<number>((resolve) => server.on("exit", (code, signal) => resolve(code ?? (signal === null ? 1 : 0))));
  const url = localUrl();
  if (await waitUntilServing(url, server)) say(banner(credentials, url));
  return exited;
}

void main().then((code) => {
  process.exitCode = code;
});
