import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\//, replacement: `${path.resolve(__dirname)}/` },
      // `server-only` throws outside React Server Components; tests are server code.
      { find: /^server-only$/, replacement: path.resolve(__dirname, "test/helpers/server-only.ts") },
    ],
  },
  test: {
    include: ["lib/**/*.test.ts", "test/**/*.test.ts", "scripts/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    // Each file runs in its own process: an embedded chDB data dir belongs to one process.
    pool: "forks",
    isolate: true,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    unstubEnvs: true,
  },
});
