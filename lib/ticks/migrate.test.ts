import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient, type ClickHouseClient } from "@clickhouse/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tickDdl } from "./ddl";
import { statements as polymarketStatements } from "./ddl/0001_polymarket_orderbook";
import { applyTickDdl } from "./migrate";
import { readerUserStatements } from "./reader-user";

let writer: ClickHouseClient;

beforeAll(async () => {
  const { createChdbConnection } = await import("chdb/connection");
  type ConnectionOption = NonNullable<Parameters<typeof createClient>[0]>["connection"];
  writer = createClient({ connection: createChdbConnection({ path: mkdtempSync(path.join(tmpdir(), "brier-ddl-")) }) as unknown as ConnectionOption });
});
afterAll(async () => {
  await writer.close();
});

async function rows<T>(query: string): Promise<T[]> {
  return (await writer.query({ query, format: "JSONEachRow" })).json<T>();
}

describe("applyTickDdl", () => {
  it("moves a legacy brier_ddl_migrations out of the published database without re-applying anything", async () => {
    await writer.command({ query: "CREATE TABLE brier_ddl_migrations (version String, applied_at DateTime64(3) DEFAULT now64(3)) ENGINE = ReplacingMergeTree ORDER BY version" });
    await writer.insert({ table: "brier_ddl_migrations", values: [{ version: "0001_polymarket_orderbook" }], format: "JSONEachRow" });
    // The legacy data dir's table, as 0001 made it (later versions alter it).
    for (const query of polymarketStatements) await writer.command({ query });
    await writer.command({ query: "INSERT INTO polymarket_orderbook_rust (timestamp, timestamp_received, market, event_type, data) VALUES (1000, 1000, 'm', 'book', '{\"asset_id\":\"a\",\"bids\":[],\"asks\":[]}')" });
    // Only the versions the legacy ledger did not list are applied.
    expect(await applyTickDdl(writer, "default")).toEqual(tickDdl.map((m) => m.version).filter((v) => v !== "0001_polymarket_orderbook"));
    expect(await rows("SELECT database, name FROM system.tables WHERE name LIKE '%migrations%' ORDER BY database")).toEqual([
      { database: "default_brier_internal", name: "ddl_migrations" },
    ]);
    expect(await rows("SELECT version FROM default_brier_internal.ddl_migrations ORDER BY version")).toEqual(tickDdl.map((m) => ({ version: m.version })));
    // The published database holds the published tables only; 0001's table kept its row and
    // gained the replay columns (0007), computed for the row written before them.
    expect(await rows("SELECT name FROM system.tables WHERE database = 'default' ORDER BY name")).toEqual([{ name: "kalshi_orderbook" }, { name: "market_outcomes" }, { name: "polymarket_orderbook_rust" }]);
    expect(await rows("SELECT replay_asset, replay_side, replay_text FROM polymarket_orderbook_rust")).toEqual([{ replay_asset: "a", replay_side: 0, replay_text: "[],[]" }]);
    expect(await applyTickDdl(writer, "default")).toEqual([]);
  });

});

describe("readerUserStatements", () => {
  it("grants SELECT on the published tables only, pins the limits, and parses as ClickHouse DDL", async () => {
    const statements = readerUserStatements({ user: "brier_reader", password: "a-long-reader-password", database: "ticks", cluster: "main" });
    const text = statements.join("\n");
    expect(text).not.toContain("a-long-reader-password");
    expect(statements.filter((s) => s.startsWith("GRANT"))).toEqual([
      "GRANT ON CLUSTER main SELECT ON ticks.polymarket_orderbook_rust TO brier_reader",
      "GRANT ON CLUSTER main SELECT ON ticks.polymarket_orderbook_rust_local TO brier_reader",
      "GRANT ON CLUSTER main SELECT ON ticks.kalshi_orderbook TO brier_reader",
      "GRANT ON CLUSTER main SELECT ON ticks.kalshi_orderbook_local TO brier_reader",
      "GRANT ON CLUSTER main SELECT ON ticks.market_outcomes TO brier_reader",
      "GRANT ON CLUSTER main SELECT ON ticks.market_outcomes_local TO brier_reader",
    ]);
    expect(text).toContain("readonly = 2");
    expect(text).toContain("max_execution_time = 5 MAX 5");
    expect(text).toContain("DEFAULT DATABASE ticks");
    for (const statement of statements) {
      const result = await writer.query({ query: "SELECT formatQuerySingleLine({q:String}) AS q", query_params: { q: statement }, format: "JSONEachRow" });
      const parsed = await result.json<{ q: string }>();
      expect(parsed[0]?.q).toMatch(/^(CREATE USER|REVOKE|GRANT)/);
    }
    expect(() => readerUserStatements({ user: "x; DROP", password: "p", database: "ticks" })).toThrow(/identifier/);
  });
});
