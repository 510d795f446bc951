import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sharesProcess, usesRelationalStore } from "./helpers/store-users";

// The rules that pick the PostgreSQL run's files and the files that share a process (vitest.config.mts), on a small tree of their own.
const root = mkdtempSync(path.join(tmpdir(), "brier-store-users-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(file: string, source: string): string {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), source);
  return file;
}

write("lib/db/client.ts", 'import { PGlite } from "@electric-sql/pglite";\nexport const getDb = () => new PGlite();\n');
write("lib/db/index.ts", 'export { getDb } from "./client";\n');
write("lib/catalog/store.ts", 'import { getDb } from "@/lib/db";\nexport const list = () => getDb();\n');
write("lib/catalog/route.ts", 'import {\n  list,\n} from "./store";\nexport const handler = () => list();\n');
write("lib/format.ts", "export const cents = (p: number) => `${p * 100}¢`;\n");
write("lib/types.ts", 'import type { getDb } from "@/lib/db";\nexport type Opener = typeof getDb;\n');
write("lib/process-globals.mjs", "export const processGlobals = () => globalThis;\n");
write("lib/counts.mjs", 'import { processGlobals } from "./process-globals.mjs";\nexport const count = () => (processGlobals().n = 1);\n');
write("lib/ticks/client.ts", 'export const open = async () => (await import("chdb")).Session;\n');
write("lib/spawn.mjs", 'import { spawn } from "node:child_process";\nexport const start = () => spawn("node");\n');

// Each case: what the file does, its source, whether the PostgreSQL run runs it (usesRelationalStore),
// and whether it may share a process with other files (sharesProcess, the `shared` project).
describe("which test files the PostgreSQL run runs, and which share a process", () => {
  it.each([
    ["imports the store's client through an index", 'import { getDb } from "@/lib/db";', true, false],
    ["reaches it through two modules, one import over several lines", 'import { handler } from "@/lib/catalog/route";', true, false],
    ["reaches it by a relative path", 'import { list } from "../lib/catalog/store";', true, false],
    ["loads it with a dynamic import", 'const { getDb } = await import("@/lib/db/client");', true, false],
    ["imports postgres.js itself", 'import postgres from "postgres";', true, false],
    ["imports PGlite's contrib itself", 'import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";', true, false],
    ["starts a process (a child inherits DATABASE_URL)", 'import { start } from "../lib/spawn.mjs";', true, false],
    ["starts a worker", 'import { Worker } from "node:worker_threads";', true, false],
    ["reaches chDB through a dynamic import", 'import { open } from "@/lib/ticks/client";', false, false],
    ["imports chDB's connection itself", 'const { createChdbConnection } = await import("chdb/connection");', false, false],
    ["reaches the process's global slots", 'import { count } from "../lib/counts.mjs";', false, false],
    ["is pure logic", 'import { cents } from "@/lib/format";', false, true],
    ["imports the store's types only", 'import type { Opener } from "@/lib/types";\nimport { cents } from "@/lib/format";', false, true],
    ["imports a package that is no store", 'import { z } from "zod";', false, true],
  ])("a file that %s: %s", (_what, source, postgresRun, shared) => {
    const file = write(`test/case-${Math.random().toString(36).slice(2)}.test.ts`, `${source}\n`);
    expect(usesRelationalStore(file, root)).toBe(postgresRun);
    expect(sharesProcess(file, root)).toBe(shared);
  });
});
