import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startCommand } from "./start-command";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project root whose package.json has this start script. */
function rootWith(start: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "brier-start-command-"));
  dirs.push(dir);
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ scripts: { start } }));
  return dir;
}

describe("startCommand (how npm start runs the server)", () => {
  it.each([
    ["node server.mjs", {}, []],
    ["node --max-semi-space-size=64 server.mjs", {}, ["--max-semi-space-size=64"]],
    ["MALLOC_TRIM_THRESHOLD_=131072 node --max-semi-space-size=64 server.mjs", { MALLOC_TRIM_THRESHOLD_: "131072" }, ["--max-semi-space-size=64"]],
    ["A=1 B_2= node --x --y=2 server.mjs", { A: "1", B_2: "" }, ["--x", "--y=2"]],
  ])("reads %j into its environment and node's flags", (start, env, nodeArgs) => {
    expect(startCommand(rootWith(start))).toEqual({ env, nodeArgs });
  });

  it.each(["next start", "node server.js", "cd app && node server.mjs", "lower=1 node server.mjs", ""])("refuses a start script it cannot run as deployed: %j", (start) => {
    expect(() => startCommand(rootWith(start))).toThrow(/unexpected start script/);
  });

  it("reads this project's own start script: V8's young generation, its heap-growing factor and glibc's trim threshold", () => {
    const { env, nodeArgs } = startCommand();
    expect(nodeArgs).toContain("--max-semi-space-size=64");
    expect(nodeArgs).toContain("--heap-growing-percent=50");
    expect(env.MALLOC_TRIM_THRESHOLD_).toBe("131072");
  });
});
