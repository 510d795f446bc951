#!/usr/bin/env node
// The figures of docs/architecture.md, "Measures" (issue 32): how far data still crosses its owners,
// how ClickHouse is reached, what a recorded venue takes, the process's global keys and the largest
// files, counted in a checkout: `node scripts/lint/map-measures.mjs [ROOT]` (default: this tree).
// Plain text in, numbers out: it reads files, runs nothing and writes nothing.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, "..", ".."));
const require = createRequire(import.meta.url);
const { readTableOwners } = require(path.join(root, "scripts", "lint", "layer-map.cjs"));

/** Tracked source files (no tests) under the given folders. */
function sources(...dirs) {
  const listed = execFileSync("git", ["-C", root, "ls-files", "--", ...dirs], { encoding: "utf8" }).split("\n");
  return listed.filter((file) => /\.(ts|tsx|mjs|cjs)$/.test(file) && !/\.test\.|\.d\.mts$/.test(file) && !file.startsWith("test/") && !file.startsWith("e2e/"));
}
const read = (file) => readFileSync(path.join(root, file), "utf8");
const folderOf = (file) => /^lib\/([^/]+)\//.exec(file)?.[1] ?? (file.startsWith("lib/") ? "base" : "app");
const code = sources("lib", "app", "components", "scripts", "instrumentation.ts", "instrumentation-node.ts", "server.mjs");

// 1. Schema modules imported outside their owner (lib/db excepted): one per importing file and module.
const { modules } = readTableOwners(root);
const crossings = [];
for (const file of code) {
  for (const m of read(file).matchAll(/from "@\/lib\/db\/schema\/([a-z0-9-]+)"/g)) {
    const owner = modules.get(m[1])?.owner;
    const folder = folderOf(file);
    if (folder !== "db" && owner !== undefined && folder !== owner) crossings.push(`${file} -> ${m[1]} (owner lib/${owner})`);
  }
}

// 2. Ways into ClickHouse: call sites of each handle outside lib/ticks.
const handles = {
  "getTickStores() (the stores: writer, readers)": /\bgetTickStores\(/g,
  ".writer (the privileged writer)": /\b(?:stores|ticks|tickStores)\??\.writer\b|\{\s*writer\s*\}\s*=\s*await getTickStores/g,
  "requestTickReader() (a request's reader)": /\brequestTickReader\(/g,
  ".background (the background reader)": /\bstores\??\.background\b/g,
  "tickRows/tickRowStream/tickStream (typed queries on a reader)": /\btick(?:Rows|RowStream|Stream)\b(?:<[^()]*>)?\(/g,
};
const outsideTicks = code.filter((file) => !file.startsWith("lib/ticks/"));
const handleCounts = Object.fromEntries(
  Object.entries(handles).map(([name, pattern]) => [name, outsideTicks.reduce((n, file) => n + [...read(file).matchAll(pattern)].length, 0)]),
);

// 3. Files naming a recorded venue outside its own folder (what adding one used to edit): Kalshi's names.
const venueNames = /kalshiTable|kalshi_orderbook|"kalshi"|KalshiRecorder|kalshiRecorder/;
const namingKalshi = code.filter((file) => (file.startsWith("lib/") || file.startsWith("app/")) && file.endsWith(".ts") && !file.startsWith("lib/recorder/kalshi/") && venueNames.test(read(file)));

// 4. Keys on globalThis (lib/process-globals.mjs lists them where it exists).
const globalsFile = code.find((file) => file === "lib/process-globals.mjs");
const globalKeys = new Set();
if (globalsFile !== undefined) for (const m of read(globalsFile).matchAll(/^\s+(__brier[A-Za-z]+):/gm)) globalKeys.add(m[1]);
for (const file of code) for (const m of read(file).matchAll(/\b(__brier[A-Za-z]+)\b/g)) globalKeys.add(m[1]);

// 5. The ten largest non-test source files, by lines.
const largest = code
  .map((file) => ({ file, lines: read(file).split("\n").length - 1 }))
  .sort((a, b) => b.lines - a.lines)
  .slice(0, 10);

console.log(`root: ${root}`);
console.log(`schema modules imported outside their owner: ${crossings.length} (file, module) pairs`);
for (const line of crossings) console.log(`  ${line}`);
console.log("ClickHouse handles, call sites outside lib/ticks:");
for (const [name, count] of Object.entries(handleCounts)) console.log(`  ${count}\t${name}`);
console.log(`files naming Kalshi outside lib/recorder/kalshi/ (lib, app): ${namingKalshi.length}`);
for (const file of namingKalshi) console.log(`  ${file}`);
console.log(`globalThis keys: ${globalKeys.size}`);
console.log("ten largest non-test files (lines):");
for (const { file, lines } of largest) console.log(`  ${lines}\t${file}`);
