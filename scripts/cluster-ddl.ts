/**
 * Prints the cluster variant of the tick table for CLICKHOUSE_URL deployments (docs/ticks.md):
 * a ReplicatedReplacingMergeTree local table on every node and a Distributed table under the
 * name clients query, sharded by market. Apply it with clickhouse-client before the service starts.
 *
 *   npm run --silent cluster-ddl -- --cluster <name> [--database default] > cluster.sql
 */
import { parseArgs } from "node:util";
import { clusterStatements } from "@/lib/ticks/cluster";

const { values } = parseArgs({ options: { cluster: { type: "string" }, database: { type: "string", default: "default" } } });
const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;
if (values.cluster === undefined || !identifier.test(values.cluster) || !identifier.test(values.database)) {
  process.stderr.write("Usage: npm run --silent cluster-ddl -- --cluster <name> [--database <db>] (plain identifiers)\n");
  process.exit(2);
}
process.stdout.write(`${clusterStatements(values.cluster, values.database).join(";\n\n")};\n`);
