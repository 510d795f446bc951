import { describe, expect, it } from "vitest";
import { clusterStatements } from "./cluster";

describe("clusterStatements", () => {
  it("derives a replicated local table and a Distributed table sharded by market", () => {
    const [local, distributed] = clusterStatements("brier", "ticks");
    expect(local).toContain("CREATE TABLE IF NOT EXISTS ticks.polymarket_orderbook_rust_local ON CLUSTER brier");
    expect(local).toContain("ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/ticks/polymarket_orderbook_rust_local', '{replica}')");
    expect(local).toContain("PRIMARY KEY market");
    expect(local).toContain("ORDER BY (market, timestamp, event_type, cityHash64(data))");
    expect(local).toContain("INDEX ts_minmax timestamp TYPE minmax GRANULARITY 1");
    expect(distributed).toBe(`CREATE TABLE IF NOT EXISTS ticks.polymarket_orderbook_rust ON CLUSTER brier
  AS ticks.polymarket_orderbook_rust_local
  ENGINE = Distributed(brier, ticks, polymarket_orderbook_rust_local, cityHash64(market))`);
  });

  it("gives kalshi_orderbook the same pair", () => {
    const [, , local, distributed] = clusterStatements("brier", "ticks");
    expect(local).toContain("CREATE TABLE IF NOT EXISTS ticks.kalshi_orderbook_local ON CLUSTER brier");
    expect(local).toContain("ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/ticks/kalshi_orderbook_local', '{replica}')");
    expect(local).toContain("ORDER BY (market, timestamp, event_type, cityHash64(data))");
    expect(distributed).toContain("ENGINE = Distributed(brier, ticks, kalshi_orderbook_local, cityHash64(market))");
  });

  it("adds the books' replay columns on every node's local table and on the Distributed one", () => {
    const replay = clusterStatements("brier", "ticks").filter((statement) => statement.startsWith("ALTER"));
    expect(replay.map((statement) => statement.slice(0, statement.indexOf(" ADD COLUMN")))).toEqual([
      "ALTER TABLE ticks.polymarket_orderbook_rust_local ON CLUSTER brier",
      "ALTER TABLE ticks.polymarket_orderbook_rust ON CLUSTER brier",
      "ALTER TABLE ticks.kalshi_orderbook_local ON CLUSTER brier",
      "ALTER TABLE ticks.kalshi_orderbook ON CLUSTER brier",
    ]);
    for (const statement of replay) expect(statement).toContain("ADD COLUMN IF NOT EXISTS replay_asset String MATERIALIZED JSONExtractString(data, 'asset_id')");
  });

  it("gives market_outcomes a replicated MergeTree (nothing collapses) sharded by market", () => {
    const [, , , , local, distributed] = clusterStatements("brier", "ticks");
    expect(local).toContain("CREATE TABLE IF NOT EXISTS ticks.market_outcomes_local ON CLUSTER brier");
    expect(local).toContain("ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/ticks/market_outcomes_local', '{replica}')");
    expect(local).toContain("ORDER BY (venue, market, venue_time, received_time)");
    expect(distributed).toContain("ENGINE = Distributed(brier, ticks, market_outcomes_local, cityHash64(market))");
  });
});
