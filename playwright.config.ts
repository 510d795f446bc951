import { defineConfig } from "@playwright/test";
import { E2E_BASE_URL } from "./e2e/env";

/**
 * The dashboard's end-to-end suite in Debian's Chromium (docs/architecture.md, pitfall 10) against the production server (server.mjs)
 * on fresh embedded stores seeded offline by e2e/serve.ts. It builds nothing: run `npm run build`
 * first (CI does). NEXT_DIST_DIR picks another build folder, E2E_PORT another port.
 */
export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  outputDir: "e2e-artifacts/results",
  fullyParallel: false,
  workers: 1,
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: [["list"], ["html", { outputFolder: "e2e-artifacts/report", open: "never" }]],
  use: {
    baseURL: E2E_BASE_URL,
    viewport: { width: 1366, height: 900 },
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    command: "npx tsx --conditions=react-server e2e/serve.ts",
    url: `${E2E_BASE_URL}/v0/health`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
  },
});
