import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync } from "node:fs";
import path from "node:path";
import { startCommand } from "../../lib/start-command";

export interface RunningServer {
  url: string;
  /** The server's process id (for its RSS). */
  pid: number | undefined;
  stop: () => Promise<void>;
}

/** The node flags of package.json's `start` script (`node <flags> server.mjs`): the benches run the server as deployed. */
export function startFlags(): string[] {
  return startCommand().nodeArgs;
}

/** The environment package.json's `start` script sets for the server (`NAME=value node ...`). */
export function startEnv(): Record<string, string> {
  return startCommand().env;
}

/**
 * Starts the built app as `npm start` does (server.mjs: Next plus the JSON API front) on a port,
 * with its own environment (DATA_DIR, limits),
 * and waits until GET /v0/health answers 200. Requires `npm run build` first.
 */
export async function startServer(options: {
  port: number;
  env: Record<string, string>;
  distDir?: string;
  /** Extra node flags, e.g. ["--cpu-prof", "--cpu-prof-dir=/tmp/prof"] (the profile is written when the server exits). */
  nodeArgs?: string[];
  /** Append the server's stdout and stderr (its log lines) to this file. */
  logFile?: string;
}): Promise<RunningServer> {
  const distDir = options.distDir ?? process.env.NEXT_DIST_DIR ?? ".next";
  if (!existsSync(path.join(distDir, "BUILD_ID"))) {
    throw new Error(`No production build in ${distDir}: run \`npm run build\` first.`);
  }
  const child: ChildProcess = spawn(process.execPath, [...startFlags(), ...(options.nodeArgs ?? []), "server.mjs"], {
    env: { ...process.env, NEXT_DIST_DIR: distDir, NODE_ENV: "production", PORT: String(options.port), HOST: "127.0.0.1", ...startEnv(), ...options.env },
    stdio: ["ignore", options.logFile === undefined ? "ignore" : "pipe", "pipe"],
  });
  if (options.logFile !== undefined) {
    const log = createWriteStream(options.logFile, { flags: "a" });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
  }
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${stderr}`);
    try {
      const res = await fetch(`${url}/v0/health`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the server did not become healthy in 150 s:\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
      }),
  };
}
