import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\//, replacement: `${path.dirname(fileURLToPath(import.meta.url))}/` },
      // `server-only` throws outside React Server Components; tests are server code.
      { find: /^server-only$/, replacement: fileURLToPath(new URL("./test/helpers/server-only.ts", import.meta.url)) },
    ],
  },
  test: {
    include: ["lib/**/*.test.ts", "test/**/*.test.ts", "scripts/**/*.test.ts"],
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
