import { readdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { usesRelationalStore } from "./test/helpers/store-users";

const root = path.dirname(fileURLToPath(import.meta.url));
const testFiles = ["lib/**/*.test.ts", "test/**/*.test.ts", "scripts/**/*.test.ts"];

/**
 * `npm test` runs every test file; `npm run test:pg` (BRIER_TEST_DATABASE=postgres) runs only those
 * that can reach the relational store, the others being the same on both runs
 * (test/helpers/store-users.ts, docs/ci.md). A file that opens its store while the rule leaves it
 * out fails on the embedded run (test/setup.ts).
 */
function postgresTestFiles(): string[] {
  return ["lib", "test", "scripts"]
    .flatMap((folder) => readdirSync(path.join(root, folder), { recursive: true }).map((file) => path.join(folder, String(file))))
    .filter((file) => file.endsWith(".test.ts") && usesRelationalStore(file, root))
    .sort();
}

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\//, replacement: `${root}/` },
      // `server-only` throws outside React Server Components; tests are server code.
      { find: /^server-only$/, replacement: fileURLToPath(new URL("./test/helpers/server-only.ts", import.meta.url)) },
    ],
  },
  test: {
    include: process.env.BRIER_TEST_DATABASE === "postgres" ? postgresTestFiles() : testFiles,
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/setup.ts"],
    // Each file runs in its own process: an embedded chDB data dir belongs to one process.
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
  },
});
