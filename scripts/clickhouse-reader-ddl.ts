/**
 * Prints the DDL of the dedicated read-only user of POST /v0/sql on a ClickHouse server
 * (docs/ticks.md, "Reader user"): SELECT on the published tables only, readonly=2, limits capped.
 * Apply it as an admin with clickhouse-client, then set CLICKHOUSE_READER_USER/PASSWORD.
 * The password is read from CLICKHOUSE_READER_PASSWORD; only its SHA-256 is printed.
 *
 *   CLICKHOUSE_READER_PASSWORD=... npm run --silent clickhouse-reader-ddl -- --user brier_reader [--database default] [--cluster <name>] > reader.sql
 */
import { parseArgs } from "node:util";
import { config } from "@/lib/config";
import { readerUserStatements } from "@/lib/ticks/reader-user";

const { values } = parseArgs({
  options: { user: { type: "string", default: "brier_reader" }, database: { type: "string" }, cluster: { type: "string" } },
});
const password = config.clickhouse.reader?.password ?? "";
if (password.length < 16) {
  process.stderr.write("Set CLICKHOUSE_READER_PASSWORD (16 characters or more) and CLICKHOUSE_READER_USER before printing the reader's DDL.\n");
  process.exit(2);
}
try {
  const statements = readerUserStatements({
    user: values.user,
    password,
    database: values.database ?? config.clickhouse.database,
    cluster: values.cluster,
  });
  process.stdout.write(`${statements.join(";\n\n")};\n`);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(2);
}
