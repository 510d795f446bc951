import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * How `npm start` runs the server, read from package.json's `start` script
 * (`[NAME=value ...] node <flags> server.mjs`): the environment it sets for the process (glibc's
 * malloc settings, read by the C library before any JavaScript runs) and node's flags. Benches,
 * the demo and the local cluster start the server with both, so they run it as deployed.
 */
export function startCommand(root = process.cwd()): { env: Record<string, string>; nodeArgs: string[] } {
  const { scripts } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
  const words = (scripts.start ?? "").trim().split(/\s+/);
  const node = words.indexOf("node");
  const assignments = words.slice(0, Math.max(node, 0));
  if (node < 0 || words.at(-1) !== "server.mjs" || assignments.some((word) => !/^[A-Z_][A-Z0-9_]*=\S*$/.test(word))) {
    throw new Error(`unexpected start script: ${scripts.start ?? ""}`);
  }
  const env = Object.fromEntries(assignments.map((word) => [word.slice(0, word.indexOf("=")), word.slice(word.indexOf("=") + 1)]));
  return { env, nodeArgs: words.slice(node + 1, -1) };
}
