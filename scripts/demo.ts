/**
 * `npm run demo`: one command from a fresh clone to a working demo (README, "Quick start").
 *
 * 1. builds the dashboard when there is no build or the sources changed since it was made;
 * 2. `admin demo-setup`: the mock catalog, the demo history (`admin demo-ticks`), an operator
 *    account with a password and an enterprise key, all reused when an earlier run made them;
 * 3. starts the service (`server.mjs`, as `npm start` does) and, once it answers, prints the URL,
 *    the email, the password and the key.
 *
 * `npm run demo -- --credentials` prints the banner again (from DATA_DIR/demo-credentials.json)
 * and starts nothing; every banner printed is also written to DATA_DIR/demo-banner.txt (mode 0600).
 *
 * This process stays small while the server runs (it opens no store: step 2 runs in its own
 * process, or in the running server over the admin channel) and passes Ctrl-C on to the server.
 * With a server already holding this DATA_DIR it starts nothing: it prints the credentials.
 */
import { spawn, spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { config } from "@/lib/config";
import { readChannel } from "@/lib/operator/channel-client";
import { serverSettings } from "@/lib/server-settings.mjs";
import { say } from "./lib/cli";
import { startCommand } from "./lib/start-command";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const settings = serverSettings();
// `--days N`: the length of the demo history on its first run (default 7); `--credentials`: print the banner again.
const { values: flags } = parseArgs({ options: { days: { type: "string" }, credentials: { type: "boolean" } }, strict: true });
const credentialsFile = path.join(path.resolve(config.dataDir), "demo-credentials.json");
const bannerFile = path.join(path.resolve(config.dataDir), "demo-banner.txt");

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
  const curl = `curl -s -H "Authorization: Bearer $KEY"`;
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
    `    ${curl} "${url}/v0/markets?exchange=mock&limit=3"`,
    `    ${curl} "${url}/v0/orderbooks/mock-m34-yes?depth=3"`,
    `    ${curl} -N "${url}/v0/stream?exchange=mock&outcomeIds=mock-m34-yes"    # the live book, moving`,
    `    ${curl} "${url}/v0/pairs/synthetic-demo-pair/KXSYNTHDEMO-26DEC31/spreads?since=-1d&interval=1h"`,
    "",
    "  Every book, trade, price and resolution of this demo is SYNTHETIC: the mock markets and the",
    "  Polymarket/Kalshi demo pair are simulated, the open ones keep ticking while this runs (their hours",
    "  read `synthetic`), and the mock markets the history closed are resolved by their price paths.",
    `  This banner again: npm run demo -- --credentials   (also in ${bannerFile})`,
    "  The admin CLI works beside the running server: npm run --silent admin -- help",
    "  Ctrl-C stops the server; `npm run demo` again starts it on the same data and credentials.",
    "",
  ].join("\n");
}

/** Prints the banner and keeps a copy beside the credentials (it holds them: mode 0600). */
function showBanner(text: string): void {
  say(text);
  try {
    writeFileSync(bannerFile, `${text.trim()}\n`, { mode: 0o600 });
  } catch {
    // A read-only data dir: the banner was printed; the copy is a convenience.
  }
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
  if (flags.credentials === true) {
    if (!existsSync(credentialsFile)) {
      say(`No demo credentials in ${config.dataDir} yet: \`npm run demo\` makes them.`);
      return 1;
    }
    showBanner(banner(JSON.parse(readFileSync(credentialsFile, "utf8")) as { email: string; password: string; key: string }, localUrl()));
    return 0;
  }
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
    showBanner(`${banner(credentials, localUrl())}  (Already running as process ${running.pid}; the URL assumes it was started with this PORT and HOST.)\n`);
    return 0;
  }
  // DEMO_LIVE: the synthetic venues keep ticking in the server (lib/demo/live.ts).
  const launcher = startCommand(root);
  const server = spawn(process.execPath, [...launcher.nodeArgs, "server.mjs"], { cwd: root, env: { ...launcher.env, ...process.env, DEMO_LIVE: "true" }, stdio: "inherit" });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  const exited = new Promise<number>((resolve) => server.on("exit", (code, signal) => resolve(code ?? (signal === null ? 1 : 0))));
  const url = localUrl();
  if (await waitUntilServing(url, server)) showBanner(banner(credentials, url));
  return exited;
}

void main().then((code) => {
  process.exitCode = code;
});
