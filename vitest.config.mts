import { readdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { sharesProcess, usesRelationalStore } from "./test/helpers/store-users";

const root = path.dirname(fileURLToPath(import.meta.url));
const testFiles = ["lib/**/*.test.ts", "test/**/*.test.ts", "scripts/**/*.test.ts"];

/**
 * `npm test` runs every test file; `npm run test:pg` (BRIER_TEST_DATABASE=postgres) runs only those
 * that can reach the relational store, the others being the same on both runs
 * (test/helpers/store-users.ts, docs/ci.md). A file that opens its store while the rule leaves it
 * out fails on the embedded run (test/setup.ts).
 */
function testFilesUnder(folders: string[]): string[] {
  return folders
    .flatMap((folder) => readdirSync(path.join(root, folder), { recursive: true }).map((file) => path.join(folder, String(file))))
    .filter((file) => file.endsWith(".test.ts"))
    .sort();
}

function postgresTestFiles(): string[] {
  return testFilesUnder(["lib", "test", "scripts"]).filter((file) => usesRelationalStore(file, root));
}

/**
 * The files that open no store and start no process (test/helpers/store-users.ts, sharesProcess)
 * run in the `shared` project, several files to a process (isolate: false): each of them spent
 * more time importing than testing, the matching engine's vocabularies and word lists loaded
 * again in every fresh process (docs/ci.md). Every other file keeps a process of its own.
 */
const sharedFiles = testFilesUnder(["lib", "test", "scripts"]).filter((file) => sharesProcess(file, root));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\//, replacement: `${root}/` },
      // `server-only` throws outside React Server Components; tests are server code.
      { find: /^server-only$/, replacement: fileURLToPath(new URL("./test/helpers/server-only.ts", import.meta.url)) },
    ],
  },
  test: {
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/setup.ts"],
    // Each file runs in its own process (an embedded chDB data dir belongs to one process), but for
    // the `shared` project's files, which open no store (below).
    pool: "forks",
    isolate: true,
    // Vitest's default is one fork fewer than the cores: a single fork on a two-core machine, where
    // each file spends much of its time waiting on PostgreSQL, chDB's threads, child servers and
    // loopback fakes. Two forks there finished the suite with no failure at a load average of 6-10
    // (README, "Development").
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    unstubEnvs: true,
    projects:
      process.env.BRIER_TEST_DATABASE === "postgres"
        ? [{ extends: true, test: { name: "postgres", include: postgresTestFiles() } }]
        : [
            { extends: true, test: { name: "isolated", include: testFiles, exclude: sharedFiles } },
            { extends: true, test: { name: "shared", include: sharedFiles, isolate: false, env: { BRIER_TEST_SHARED_PROCESS: "true" } } },
          ],
  },
});
