/**
 * `npm run cluster -- [--web N] [--port P] [--rate F] [--database NAME]`: Brier scaled out on
 * one machine, to try it: N web instances (`node server.mjs` on ports P, P+1, ...), one recorder,
 * this machine's PostgreSQL and NATS (docs/architecture.md, "Scale-out"). The recorder reads a
 * loopback Polymarket market channel fed with F frames a second; the catalog comes from the
 * loopback fake venues. Prints an enterprise key and what to try; Ctrl-C stops everything.
 *
 * Needs `npm run build` first. PostgreSQL: BRIER_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres,
 * the server; the cluster uses its own database, default brier_cluster); NATS: NATS_URL (default
 * nats://127.0.0.1:4222, with a subject prefix of its own). Logs: .cluster/<part>.log.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { say } from "./lib/cli";
import { createKey, startTopology } from "./lib/topology";

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      web: { type: "string", default: "2" },
      port: { type: "string", default: "3100" },
      rate: { type: "string", default: "20" },
      database: { type: "string", default: "brier_cluster" },
    },
  });
  const webs = Number(values.web);
  const basePort = Number(values.port);
  const frameRate = Number(values.rate);
  if (!Number.isInteger(webs) || webs < 1 || webs > 16) throw new Error("--web takes 1 to 16 instances");
  const workDir = path.resolve(".cluster");
  say(`starting ${webs} web instance(s), a recorder, on PostgreSQL and NATS (logs in ${workDir}) ...`);
  const topology = await startTopology({
    webs,
    basePort,
    pgUrl: process.env.BRIER_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    database: values.database,
    natsUrl: process.env.NATS_URL ?? "nats://127.0.0.1:4222",
    workDir,
    frameRate,
  });
  const stopFeed = topology.startFeed(() => undefined);
  const key = await createKey(topology.databaseUrl, "enterprise", "cluster@example.test");
  const urls = topology.webs.map((web) => `http://127.0.0.1:${String(web.port)}`);
  say(`
Brier cluster up: ${urls.join("  ")}
  PostgreSQL ${topology.databaseUrl}
  NATS       ${process.env.NATS_URL ?? "nats://127.0.0.1:4222"} (subjects ${topology.prefix}.*)
  recorder   pid ${String(topology.recorder.pid)}, fed ${frameRate} market-channel frames/s
  key        ${key}   (enterprise)

Try:
  curl -s -H 'Authorization: Bearer ${key}' ${urls[0]}/v0/markets?limit=3
  a WebSocket client (pmxtjs with baseUrl ${urls[1] ?? urls[0]}, or any raw client) on
     ${(urls[1] ?? urls[0] ?? "").replace("http", "ws")}/ws?apiKey=${key}
     sending {"id":"1","action":"subscribe","exchange":"polymarket","method":"firehose","args":[]}
  a free key's 5 stream subscriptions and 10 connections count across every instance.
Ctrl-C stops everything.`);
  const shutdown = () => {
    say("stopping ...");
    stopFeed();
    void topology.close().finally(() => process.exit(0));
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

main().catch((error: unknown) => {
  say(`cluster failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
