/**
 * bench:auth — what authentication costs. Drives a keyed route (GET /v0/account: key lookup,
 * rate limit, usage row, one account read) and the unkeyed GET /v0/health (a query to each store)
 * over loopback in the same run, same connections and duration, against the production server
 * (server.mjs, as `npm start` runs it).
 * Target: keyed/unkeyed throughput >= 0.8. Needs `npm run build` first.
 *
 *   npm run bench:auth [-- --seconds 10 --connections 32 --port 3990]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { ensureAccount, setPlan } from "@/lib/auth/accounts";
import { createApiKey } from "@/lib/auth/api-keys";
import { openDatabase } from "@/lib/db";
import { printTable, runLoad } from "./lib/load";
import { startServer } from "./lib/server";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "32" },
    port: { type: "string", default: "3990" },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const port = Number(values.port);

const dataDir = mkdtempSync(path.join(tmpdir(), "brier-bench-auth-"));
const databaseUrl = process.env.DATABASE_URL;

async function main(): Promise<void> {
  console.log(`bench:auth — ${connections} connections, ${seconds} s per case, store: ${databaseUrl ? "PostgreSQL" : "embedded PGlite"}`);
  // Create the key before the server opens the (embedded) store: a data dir belongs to one process.
  const handle = await openDatabase({ url: databaseUrl, dataDir: path.join(dataDir, "pg") });
  const email = `bench-${Date.now()}@example.test`;
  const { account } = await ensureAccount(handle.db, email);
  await setPlan(handle.db, email, "enterprise");
  const { key } = await createApiKey(handle.db, account.id, "bench");
  await handle.close();

  const server = await startServer({
    port,
    env: {
      DATA_DIR: dataDir,
      BACKGROUND_JOBS: "false",
      LOG_LEVEL: "warn",
      // The limiter still counts every request; the limit is raised so the bench measures 200s.
      RATE_LIMIT_ENTERPRISE: "1000000000",
    },
  });
  try {
    const unkeyed = await runLoad({ name: "GET /v0/health (no key)", url: `${server.url}/v0/health`, connections, seconds });
    const keyed = await runLoad({
      name: "GET /v0/account (keyed)",
      url: `${server.url}/v0/account`,
      connections,
      seconds,
      headers: { authorization: `Bearer ${key}` },
    });
    printTable([unkeyed, keyed]);
    const ratio = keyed.rps / unkeyed.rps;
    console.log(`keyed/unkeyed throughput ratio: ${ratio.toFixed(2)} (target >= 0.80) ${ratio >= 0.8 ? "PASS" : "BELOW TARGET"}`);
    if (keyed.non2xx > 0 || unkeyed.non2xx > 0) console.log("warning: some responses were not 2xx; the figures include them");
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
