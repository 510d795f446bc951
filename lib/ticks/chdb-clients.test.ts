import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient, type ClickHouseClient } from "@clickhouse/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chdbClientPool, inlineParams } from "./chdb-clients";

let plain: ClickHouseClient;
let pool: ClickHouseClient;
let dir: string;

beforeAll(async () => {
  const { createChdbConnection } = await import("chdb/connection");
  type ConnectionOption = NonNullable<Parameters<typeof createClient>[0]>["connection"];
  dir = mkdtempSync(path.join(tmpdir(), "brier-chdb-pool-"));
  const connect = () => createClient({ connection: createChdbConnection({ path: dir }) as unknown as ConnectionOption });
  plain = connect();
  pool = chdbClientPool([connect(), connect()]);
  await plain.command({ query: "CREATE TABLE t (s String, n UInt32, at DateTime64(3, 'UTC')) ENGINE = MergeTree ORDER BY s" });
});
afterAll(async () => {
  await pool.close();
  await plain.close();
});

// Values a caller could pass: quotes, backslashes, braces that look like placeholders, newlines, NUL.
const awkward = ["it's", "back\\slash", "{n:UInt32}", "line\nbreak", "tab\there", "nul\u0000x", "quote\\'mix", "ünïcødé"];

describe("inlineParams", () => {
  it("reads back every value exactly as bound parameters would", async () => {
    const rows = awkward.map((s, i) => ({ s, n: i, at: `2026-01-0${(i % 9) + 1} 10:00:00.123` }));
    await plain.insert({ table: "t", values: rows, format: "JSONEachRow" });
    for (const row of rows) {
      const query = "SELECT s, n FROM t WHERE s = {s:String} AND n = {n:UInt32} AND at = {at:DateTime64(3)}";
      const bound = await (await plain.query({ query, query_params: row, format: "JSONEachRow" })).json();
      const inlined = await (await pool.query({ query, query_params: row, format: "JSONEachRow" })).json();
      expect(inlined).toEqual([{ s: row.s, n: row.n }]);
      expect(inlined).toEqual(bound);
    }
    const list = await (await pool.query({ query: "SELECT count() AS c FROM t WHERE s IN {names:Array(String)}", query_params: { names: awkward }, format: "JSONEachRow" })).json();
    expect(list).toEqual([{ c: awkward.length }]);
  });

  it("replaces only the placeholders it has values for, in one pass", () => {
    expect(inlineParams("SELECT {a:String}, {b:UInt8}", { a: "{b:UInt8}" })).toBe("SELECT CAST('{b:UInt8}' AS String), {b:UInt8}");
    expect(inlineParams("SELECT {a:Array(String)}", { a: ["x'y", "z"] })).toBe("SELECT CAST(['x\\'y', 'z'] AS Array(String))");
    expect(() => inlineParams("SELECT {a:Float64}", { a: Number.NaN })).toThrow(/finite/);
    expect(() => inlineParams("SELECT {a:String}", { a: { nested: 1 } })).toThrow(/string, number/);
  });

  it("refuses a value that does not fit the declared type, as binding does", async () => {
    await expect(pool.query({ query: "SELECT {n:UInt32} AS n", query_params: { n: "1; DROP TABLE t" }, format: "JSONEachRow" })).rejects.toThrow();
    expect(await (await plain.query({ query: "SELECT count() AS c FROM t", format: "JSONEachRow" })).json()).toEqual([{ c: awkward.length }]);
  });
});

describe("chdbClientPool", () => {
  it("refuses at once with a 503 when too many wait, and after the longest wait", async () => {
    const { createChdbConnection } = await import("chdb/connection");
    type ConnectionOption = NonNullable<Parameters<typeof createClient>[0]>["connection"];
    // Another connection to the same engine (one data dir per process).
    const small = chdbClientPool([createClient({ connection: createChdbConnection({ path: dir }) as unknown as ConnectionOption })], { maxWaitMs: 150, maxWaiting: 1 });
    try {
      const slow = small.query({ query: "SELECT sleep(0.6) AS s", format: "JSONEachRow" });
      const waits = small.query({ query: "SELECT 1 AS one", format: "JSONEachRow" });
      const refused = small.query({ query: "SELECT 2 AS two", format: "JSONEachRow" });
      await expect(refused).rejects.toMatchObject({ code: "service_unavailable", details: { retryAfter: 1 } });
      await expect(waits).rejects.toMatchObject({ code: "service_unavailable" });
      await expect((await slow).json()).resolves.toEqual([{ s: 0 }]);
      // Free again: the next statement runs.
      await expect((await small.query({ query: "SELECT 3 AS three", format: "JSONEachRow" })).json()).resolves.toEqual([{ three: 3 }]);
    } finally {
      await small.close();
    }
  });

  it("runs more statements than it has connections, each on a free one", async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => (await pool.query({ query: "SELECT {i:UInt32} + sleepEachRow(0.05) AS i", query_params: { i }, format: "JSONEachRow" })).json()),
    );
    expect(answers).toEqual(Array.from({ length: 6 }, (_, i) => [{ i }]));
  });
});
