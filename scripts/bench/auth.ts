/**
 * bench:auth — what authentication costs. Drives a keyed route (GET /v0/account: key lookup,
 * rate limit, usage row, one account read) and the unkeyed GET /v0/health (which answers from the
 * stores' last background probe, so it does no store work: the baseline is now the bare request
 * path, a stricter one than when health queried each store) over loopback in the same run, same connections and duration, against the production server
 * (server.mjs, as `npm start` runs it).
 * Target: keyed/unkeyed throughput >= 0.8. Needs `npm run build` first.
 *
 *   npm run bench:auth [-- --seconds 10 --connections 32 --port 3990]
 */
import { parseArgs } from "node:util";
import { benchDataDir } from "./lib/harness";
import { createBenchKey } from "./lib/keys";
import { printLoadTable, runLoad } from "./lib/load";
import { loadLine, memoryReport } from "./lib/memory";
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

const { dir: dataDir, remove: removeDataDir } = benchDataDir("auth");
const databaseUrl = process.env.DATABASE_URL;

async function main(): Promise<void> {
  console.log(`bench:auth — ${connections} connections, ${seconds} s per case, store: ${databaseUrl ? "PostgreSQL" : "embedded PGlite"}`);
  const key = await createBenchKey({ databaseUrl, dataDir });

  console.log(loadLine("at start"));
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
    printLoadTable([unkeyed, keyed]);
    const ratio = keyed.rps / unkeyed.rps;
    console.log(`keyed/unkeyed throughput ratio: ${ratio.toFixed(2)} (target >= 0.80) ${ratio >= 0.8 ? "PASS" : "BELOW TARGET"}`);
    if (keyed.non2xx > 0 || unkeyed.non2xx > 0) console.log("warning: some responses were not 2xx; the figures include them");
    console.log(memoryReport([{ label: "server", pid: server.pid }]));
    console.log(loadLine("at end"));
  } finally {
    await server.stop();
    removeDataDir();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
