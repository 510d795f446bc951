import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROCESS_GLOBALS } from "./process-globals.mjs";

// The process's global state is the list in lib/process-globals.mjs: no other file of the server's
// code touches globalThis, and every slot used is registered there with its reason (and every
// registered slot is still used).
const root = path.resolve(__dirname, "..");
const SOURCE = /\.(ts|tsx|mjs|js|cjs)$/;

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sources(rel);
    return SOURCE.test(entry.name) && !/\.test\.|\.d\.m?ts$/.test(entry.name) ? [rel] : [];
  });
}

/** The file's code without its comments (line comments and block comments). */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");

const files = [...sources("lib"), ...sources("app"), ...sources("components"), "server.mjs", "instrumentation.ts", "instrumentation-node.ts"].filter(
  (file) => file !== path.join("lib", "process-globals.mjs"),
);

describe("process globals (lib/process-globals.mjs)", () => {
  it("are touched through processGlobals() only: no other file names globalThis", () => {
    const touching = files.filter((file) => /\bglobalThis\b/.test(code(readFileSync(path.join(root, file), "utf8"))));
    expect(touching).toEqual([]);
  });

  it("are each registered with a reason, and each registered slot is used", () => {
    const used = new Set(files.flatMap((file) => code(readFileSync(path.join(root, file), "utf8")).match(/\b__brier[A-Za-z]+\b/g) ?? []));
    const registered = Object.keys(PROCESS_GLOBALS);
    expect([...used].filter((key) => !registered.includes(key))).toEqual([]);
    expect(registered.filter((key) => !used.has(key))).toEqual([]);
    for (const [key, why] of Object.entries(PROCESS_GLOBALS)) expect(why, key).toMatch(/^lib\/[a-z-]+: .+\((bundles|front)[;)]/);
  });
});
