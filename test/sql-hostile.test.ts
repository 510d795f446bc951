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
    expect(error.message).not.toMatch(/root:|\/bin\/bash|uid=/);

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

  it("still answers a good query afterwards", async () => {
    const res = await callRoute(POST, { path: "/v0/sql", key, body: { query: `SELECT count() AS n FROM ${T} WHERE market = '${M}'` } });
    expect(res.status).toBe(200);
    expect((res.body as { data: unknown[] }).data).toEqual([{ n: baseline + canary }]);
  });
});
