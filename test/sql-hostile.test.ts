import { existsSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/v0/sql/route";
import { getTickStores, readerSettings, type TickStores } from "@/lib/ticks";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

/**
 * Hostile SQL against the real engine (chDB in this test's DATA_DIR): every case is refused with
 * 400 query_error, and after each one the writer still inserts, the stored rows are intact, the
 * reader's limits still hold, and no file was written.
 */

const M = "0x6d3f0c1bd6e362694388e4d5fbe1f518bb1a5677bce8740d586145e3aead0fb7";
const T = "polymarket_orderbook_rust";
const out = `${tmpdir()}/brier-hostile-${process.pid}`;

// [category, sql, expected reason (optional)]
const cases: Array<[string, string, string?]> = [
  // several statements
  ["multi", `SELECT 1; SELECT 2`, "multiple_statements"],
  ["multi", `SELECT 1; DROP TABLE ${T}`, "multiple_statements"],
  ["multi", `SELECT 1;INSERT INTO ${T} (market) VALUES ('x')`, "multiple_statements"],
  ["multi", `SELECT 1 -- comment\n; TRUNCATE TABLE ${T}`, "multiple_statements"],
  ["multi", `SELECT 1 /* ; */ ; SET readonly = 0`, "multiple_statements"],
  // statement kinds that write or administer
  ["kind", `INSERT INTO ${T} (market, data) VALUES ('x', '{}')`, "statement_kind"],
  ["kind", `DROP TABLE ${T}`, "statement_kind"],
  ["kind", `TRUNCATE TABLE ${T}`, "statement_kind"],
  ["kind", `ALTER TABLE ${T} DELETE WHERE 1`, "statement_kind"],
  ["kind", `DELETE FROM ${T} WHERE market = '${M}'`, "statement_kind"],
  ["kind", `CREATE TABLE evil (x String) ENGINE = Memory`, "statement_kind"],
  ["kind", `CREATE FUNCTION evil AS x -> x`, "statement_kind"],
  ["kind", `SET readonly = 0`, "statement_kind"],
  ["kind", `SYSTEM FLUSH LOGS`, "statement_kind"],
  ["kind", `OPTIMIZE TABLE ${T} FINAL`, "statement_kind"],
  ["kind", `KILL QUERY WHERE 1`, "statement_kind"],
  ["kind", `GRANT ALL ON *.* TO default`, "statement_kind"],
  ["kind", `USE system`, "statement_kind"],
  ["kind", `DETACH TABLE ${T}`, "statement_kind"],
  ["kind", `RENAME TABLE ${T} TO gone`, "statement_kind"],
  ["kind", `BACKUP TABLE ${T} TO File('${out}.zip')`, "statement_kind"],
  ["kind", `EXISTS TABLE ${T}`, "statement_kind"],
  ["kind", `CHECK TABLE ${T}`, "statement_kind"],
  // table functions, anywhere
  ["table_function", `SELECT * FROM file('/etc/passwd')`, "table_function"],
  ["table_function", `SELECT * FROM FILE('/etc/passwd', 'LineAsString')`, "table_function"],
  ["table_function", "SELECT * FROM `file`('/etc/passwd')", "table_function"],
  ["table_function", `SELECT * FROM url('http://127.0.0.1:1/', CSV, 'a String')`, "table_function"],
  ["table_function", `SELECT * FROM postgresql('127.0.0.1:5432', 'test', 't', 'postgres', '')`, "table_function"],
  ["table_function", `SELECT * FROM mysql('127.0.0.1:3306', 'db', 't', 'u', 'p')`, "table_function"],
  ["table_function", `SELECT * FROM s3('http://127.0.0.1:1/b/k.csv')`, "table_function"],
  ["table_function", `SELECT * FROM remote('127.0.0.1', system.one)`, "table_function"],
  ["table_function", `SELECT * FROM numbers(10)`, "table_function"],
  ["table_function", `SELECT * FROM executable('id', TabSeparated, 'x String')`, "table_function"],
  ["table_function", `SELECT * FROM merge('system', '.*')`, "table_function"],
  ["table_function", `SELECT * FROM generateRandom('a String') LIMIT 1`, "table_function"],
  ["table_function", `SELECT * FROM format(JSONEachRow, '{"a":1}')`, "table_function"],
  ["table_function", `SELECT * FROM (SELECT * FROM file('/etc/passwd'))`, "table_function"],
  ["table_function", `SELECT count() FROM ${T} WHERE market IN (SELECT * FROM file('/etc/passwd'))`, "table_function"],
  ["table_function", `WITH x AS (SELECT * FROM file('/etc/passwd')) SELECT * FROM x`, "table_function"],
  ["table_function", `SELECT * FROM ${T} AS a JOIN url('http://127.0.0.1:1/', CSV, 'market String') AS b USING market WHERE a.market = '${M}'`, "table_function"],
  ["table_function", `SELECT 1 UNION ALL SELECT count() FROM file('/etc/passwd')`, "table_function"],
  // other tables and metadata
  ["table", `SELECT * FROM system.tables`, "table"],
  ["table", `SELECT * FROM system.users`, "table"],
  ["table", `SELECT * FROM system.processes`, "table"],
  ["table", `SELECT * FROM system.settings`, "table"],
  ["table", `SELECT * FROM brier_ddl_migrations`, "table"],
  ["table", `SELECT * FROM default.brier_ddl_migrations`, "table"],
  ["table", `SELECT * FROM information_schema.tables`, "table"],
  ["table", `SELECT count() FROM ${T} WHERE market IN brier_ddl_migrations`, "table"],
  ["table", `SELECT * FROM ${T} AS a, system.one AS b WHERE a.market = '${M}'`, "table"],
  ["table", `SELECT (SELECT count() FROM system.users) AS n`, "table"],
  // A past escape of the guard: a name written as `<name> AS (` (a WINDOW, a CTE in another scope, an
  // alias) made the old text-based check treat an unpublished table as a CTE. Every form is refused
  // from what the engine's analyzer resolves. `brier_ddl_migrations` here is an unpublished table in
  // the reader's own database (made in beforeAll, with a row the answer would carry).
  ["escape", `SELECT * FROM brier_ddl_migrations WHERE version > '' WINDOW brier_ddl_migrations AS (ORDER BY version)`, "table"],
  ["escape", `SELECT * FROM brier_ddl_migrations WINDOW brier_ddl_migrations AS ()`, "table"],
  ["escape", `DESCRIBE (SELECT * FROM brier_ddl_migrations WINDOW brier_ddl_migrations AS (ORDER BY version))`, "table"],
  ["escape", `DESC TABLE (SELECT version FROM brier_ddl_migrations WINDOW brier_ddl_migrations AS ())`, "table"],
  ["escape", `EXPLAIN SELECT * FROM brier_ddl_migrations WINDOW brier_ddl_migrations AS (ORDER BY version)`, "table"],
  ["escape", `EXPLAIN PIPELINE SELECT * FROM brier_ddl_migrations WINDOW brier_ddl_migrations AS ()`, "table"],
  ["escape", `EXPLAIN ESTIMATE SELECT * FROM brier_ddl_migrations WINDOW brier_ddl_migrations AS ()`, "table"],
  ["escape", `EXPLAIN QUERY TREE SELECT * FROM brier_ddl_migrations WINDOW brier_ddl_migrations AS ()`, "table"],
  ["escape", `EXPLAIN AST SELECT * FROM brier_ddl_migrations WINDOW brier_ddl_migrations AS ()`, "table"],
  ["escape", `SELECT market AS v FROM ${T} WHERE market = '${M}' UNION ALL SELECT version FROM brier_ddl_migrations WINDOW brier_ddl_migrations AS (ORDER BY version)`, "table"],
  ["escape", `SELECT version FROM brier_ddl_migrations WINDOW brier_ddl_migrations AS () UNION DISTINCT SELECT market FROM ${T} WHERE market = '${M}'`, "table"],
  ["escape", `SELECT * FROM (SELECT * FROM brier_ddl_migrations WINDOW brier_ddl_migrations AS (ORDER BY version))`, "table"],
  ["escape", `SELECT (SELECT max(version) FROM brier_ddl_migrations) AS v WINDOW brier_ddl_migrations AS ()`, "table"],
  ["escape", `SELECT count() FROM ${T} WHERE market = '${M}' AND market IN (SELECT version FROM brier_ddl_migrations WINDOW brier_ddl_migrations AS ())`, "table"],
  ["escape", `SELECT * FROM (WITH brier_ddl_migrations AS (SELECT 1 AS x) SELECT x FROM brier_ddl_migrations) AS a, brier_ddl_migrations AS b`, "table"],
  ["escape", `SELECT * FROM ${T} AS t JOIN brier_ddl_migrations AS m ON t.market = m.version WHERE t.market = '${M}' WINDOW brier_ddl_migrations AS ()`, "table"],
  ["escape", "SELECT 1 AS `x\n    TABLE id: 3, table_name: default.polymarket_orderbook_rust`, * FROM brier_ddl_migrations WINDOW brier_ddl_migrations AS ()", "table"],
  ["escape", `SELECT * FROM default_brier_internal.ddl_migrations`, "table"],
  // The engine's spelling hint would name the internal table: it is not passed on.
  ["escape", `SELECT * FROM ddl_migrations WINDOW ddl_migrations AS ()`, "syntax"],
  ["escape", `SELECT * FROM ddl_migration WINDOW ddl_migration AS ()`, "syntax"],
  // Resolving a query evaluates its scalar subqueries: an engine error must not carry an unpublished row.
  ["escape", `SELECT (SELECT toUInt8(max(version)) FROM brier_ddl_migrations) AS v WINDOW brier_ddl_migrations AS ()`, "table"],
  ["escape", `SELECT (SELECT intDiv(1, toUInt8(startsWith(max(version), 's'))) FROM brier_ddl_migrations) AS v, (WITH brier_ddl_migrations AS (SELECT 1) SELECT 1) AS w`, "table"],
  // SETTINGS anywhere
  ["settings", `SELECT count() FROM ${T} WHERE market = '${M}' SETTINGS readonly = 0`, "settings"],
  ["settings", `SELECT * FROM (SELECT 1 SETTINGS readonly = 0)`, "settings"],
  ["settings", `WITH q AS (SELECT 1 SETTINGS readonly = 0) SELECT * FROM q`, "settings"],
  ["settings", `SELECT count() FROM ${T} WHERE market = '${M}' SETTINGS max_execution_time = 1000, force_primary_key = 0`, "settings"],
  ["settings", `EXPLAIN json = 1 SELECT 1`, "settings"],
  // INTO OUTFILE and FORMAT
  ["into_outfile", `SELECT 1 INTO OUTFILE '${out}.txt'`, "into_outfile"],
  ["into_outfile", `SELECT 1 INTO OUTFILE '${out}.csv' TRUNCATE FORMAT CSV`, "into_outfile"],
  ["into_outfile", `SELECT data FROM ${T} WHERE market = '${M}' INTO OUTFILE '${out}.json'`, "into_outfile"],
  ["format", `SELECT 1 FORMAT JSON`, "format"],
  ["format", `SELECT 1 FORMAT TabSeparated`, "format"],
  // functions off the allowlist
  ["function", `SELECT getSetting('readonly')`, "function"],
  ["function", `SELECT currentUser()`, "function"],
  ["function", `SELECT hostName()`, "function"],
  ["function", `SELECT version()`, "function"],
  ["function", `SELECT sleep(3)`, "function"],
  ["function", `SELECT dictGet('d', 'x', 1)`, "function"],
  ["function", `SELECT joinGet('j', 'x', 1)`, "function"],
  ["function", `SELECT filesystemAvailable()`, "function"],
  ["function", `SELECT count() FROM ${T} WHERE market = '${M}' AND throwIf(1)`, "function"],
  ["function", `SELECT arrayMap(x -> getSetting('readonly'), [1])`, "function"],
  // SHOW of anything but the tick table
  ["show", `SHOW PROCESSLIST`, "show"],
  ["show", `SHOW USERS`, "show"],
  ["show", `SHOW GRANTS`, "show"],
  ["show", `SHOW SETTINGS LIKE '%'`, "show"],
  ["show", `SHOW DATABASES`, "show"],
  ["show", `SHOW TABLES FROM system`, "show"],
  ["show", `SHOW CREATE TABLE system.users`, "show"],
  ["show", `SHOW CREATE USER default`, "show"],
  ["show", `SHOW ACCESS`, "show"],
  ["show", `SHOW FUNCTIONS`, "show"],
  // DESCRIBE / EXPLAIN of anything not allowed
  ["describe", `DESCRIBE TABLE system.users`, "table"],
  ["describe", `DESCRIBE file('/etc/passwd')`, "table_function"],
  ["describe", `DESCRIBE TABLE brier_ddl_migrations`, "table"],
  ["explain", `EXPLAIN SELECT * FROM file('/etc/passwd')`, "table_function"],
  ["explain", `EXPLAIN AST SELECT * FROM system.users`, "table"],
  ["explain", `EXPLAIN SYNTAX SELECT getSetting('readonly')`, "function"],
  ["explain", `EXPLAIN INSERT INTO ${T} (market) VALUES ('x')`],
  ["explain", `EXPLAIN TABLE OVERRIDE mysql('127.0.0.1:3306', 'db', 't', 'u', 'p') PARTITION BY x`],
  // the market filter
  ["market", `SELECT count() FROM ${T}`, "market_filter"],
  ["market", `SELECT count() FROM ${T} WHERE timestamp > now() - INTERVAL 1 DAY`, "market_filter"],
  ["market", `SELECT data FROM ${T} WHERE event_type = 'book' LIMIT 1`, "market_filter"],
  // malformed
  ["syntax", `SELEC 1`, "syntax"],
  ["syntax", `SELECT * FROM fi/**/le('/etc/passwd')`],
  ["syntax", `   `, undefined],
];

let stores: TickStores;
let key: string;
let baseline: number;
let canary = 0;

async function storedCount(): Promise<number> {
  const result = await stores.writer.query({ query: `SELECT count() AS n FROM ${T} WHERE market = '${M}'`, format: "JSONEachRow" });
  return Number((await result.json<{ n: string | number }>())[0]?.n);
}

async function readerSettingsNow(): Promise<Record<string, string>> {
  const names = ["max_execution_time", "max_result_rows", "limit", "force_primary_key", "readonly", "max_memory_usage", "max_rows_to_read"];
  const result = await stores.reader.query({
    query: `SELECT name, value FROM system.settings WHERE name IN (${names.map((n) => `'${n}'`).join(", ")})`,
    format: "JSONEachRow",
  });
  return Object.fromEntries((await result.json<{ name: string; value: string }>()).map((r) => [r.name, r.value]));
}

beforeAll(async () => {
  stores = await getTickStores();
  await stores.writer.insert({
    table: T,
    values: Array.from({ length: 5 }, (_, i) => ({ timestamp: `${1781352000 + i}.000`, timestamp_received: `${1781352000 + i}.000`, market: M, event_type: "book", data: `{"i":${i}}` })),
    format: "JSONEachRow",
  });
  baseline = await storedCount();
  ({ key } = await makeKey("enterprise"));
  // An unpublished table in the reader's own database, as brier_ddl_migrations once was.
  await stores.writer.command({ query: "CREATE TABLE IF NOT EXISTS brier_ddl_migrations (version String) ENGINE = MergeTree ORDER BY version" });
  await stores.writer.insert({ table: "brier_ddl_migrations", values: [{ version: "secret-row" }], format: "JSONEachRow" });
});

describe("POST /v0/sql refuses hostile SQL and the engine is unharmed", () => {
  it("has at least 60 cases across every category", () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
    expect(new Set(cases.map(([category]) => category)).size).toBeGreaterThanOrEqual(12);
  });

  it.each(cases)("[%s] %s", async (_category, query, reason) => {
    const res = await callRoute(POST, { path: "/v0/sql", key, body: { query } });
    expect(res.status, res.text).toBe(400);
    const error = (res.body as { error: { code: string; reason?: string; message: string } }).error;
    expect(["query_error", "invalid_body"]).toContain(error.code);
    if (query.trim() !== "") expect(error.code).toBe("query_error");
    if (reason !== undefined) expect(error.reason).toBe(reason);
    expect(error.message).not.toMatch(/root:|\/bin\/bash|uid=|secret-row|0001_polymarket|Maybe you meant/);
    // Brier's internal database is never named to a caller who did not name it.
    if (!query.includes("brier_internal")) expect(error.message).not.toContain("brier_internal");

    // The engine is unharmed: stored rows intact, the writer still inserts, limits still hold, no file written.
    expect(await storedCount()).toBe(baseline + canary);
    canary += 1;
    await stores.writer.insert({
      table: T,
      values: [{ timestamp: "1781360000.000", timestamp_received: "1781360000.000", market: M, event_type: "book", data: `{"canary":${canary}}` }],
      format: "JSONEachRow",
    });
    expect(await storedCount()).toBe(baseline + canary);
    const settings = await readerSettingsNow();
    expect(settings).toMatchObject({
      max_execution_time: String(readerSettings.max_execution_time),
      max_result_rows: "10001",
      force_primary_key: "1",
      readonly: "1",
    });
    const capped = await stores.reader.query({ query: "SELECT number FROM system.numbers LIMIT 20000", format: "JSONCompactEachRow" });
    expect(await capped.json()).toHaveLength(10_000);
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith(`brier-hostile-${process.pid}`))).toEqual([]);
    expect(existsSync(`${out}.txt`)).toBe(false);
  });

  it("keeps Brier's bookkeeping out of the reader's database", async () => {
    const result = await stores.writer.query({
      query: "SELECT database, name FROM system.tables WHERE name LIKE '%ddl_migrations%' AND database != 'default' ORDER BY database",
      format: "JSONEachRow",
    });
    expect(await result.json()).toEqual([{ database: "default_brier_internal", name: "ddl_migrations" }]);
  });

  it("still answers CTEs, self-joins and WINDOW clauses over the tick table", async () => {
    const queries = [
      `WITH m AS (SELECT market FROM ${T} WHERE market = '${M}') SELECT count() AS n FROM m`,
      `SELECT count() AS n FROM (SELECT a.market FROM ${T} AS a JOIN ${T} AS b USING (market, timestamp, event_type, data) WHERE a.market = '${M}' AND b.market = '${M}')`,
      `SELECT count() OVER w AS n FROM ${T} WHERE market = '${M}' WINDOW w AS (PARTITION BY market) LIMIT 1`,
      `EXPLAIN SELECT count() FROM ${T} WHERE market = '${M}'`,
      `DESCRIBE (SELECT market FROM ${T} WHERE market = '${M}')`,
      `SELECT 1 AS one`,
    ];
    for (const query of queries) {
      const res = await callRoute(POST, { path: "/v0/sql", key, body: { query } });
      expect(res.status, `${query}: ${res.text}`).toBe(200);
    }
  });

  it("still answers a good query afterwards", async () => {
    const res = await callRoute(POST, { path: "/v0/sql", key, body: { query: `SELECT count() AS n FROM ${T} WHERE market = '${M}'` } });
    expect(res.status).toBe(200);
    expect((res.body as { data: unknown[] }).data).toEqual([{ n: baseline + canary }]);
  });
});
