import type { ClickHouseClient } from "@clickhouse/client";
import { describe, expect, it } from "vitest";
import { getTickStores } from "@/lib/ticks";
import { guardSql } from "./guard";

/** The reader with a count of the statements the guard sends the engine. */
async function countingReader(): Promise<{ reader: ClickHouseClient; asked: () => number; database: string }> {
  const stores = await getTickStores();
  let asked = 0;
  const reader = new Proxy(stores.reader, {
    get(target, property, receiver) {
      if (property === "query") {
        return (...args: Parameters<ClickHouseClient["query"]>) => {
          asked += 1;
          return target.query(...args);
        };
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  return { reader, asked: () => asked, database: stores.database };
}

describe("guardSql's reuse of verdicts", () => {
  it("answers an identical accepted text again without asking the engine, with the same verdict", async () => {
    const { reader, asked, database } = await countingReader();
    const text = `SELECT count() FROM polymarket_orderbook_rust WHERE market = 'guard-cache-${Date.now()}'`;
    const first = await guardSql(reader, text, database);
    const afterFirst = asked();
    expect(afterFirst).toBeGreaterThanOrEqual(3);
    expect(await guardSql(reader, text, database)).toEqual(first);
    expect(asked()).toBe(afterFirst);
    // Another text (even one that only differs by a comment) is checked in full.
    await guardSql(reader, `${text} -- again`, database);
    expect(asked()).toBeGreaterThan(afterFirst);
  });

  it("checks a refused text in full every time, and keeps refusing it", async () => {
    const { reader, asked, database } = await countingReader();
    const text = `SELECT name FROM system.tables -- ${Date.now()}`;
    const refusal = (await guardSql(reader, text, database).then(
      () => new Error("accepted"),
      (error: unknown) => error as Error,
    )) satisfies Error;
    expect(refusal.message).toMatch(/not available/);
    const afterFirst = asked();
    await expect(guardSql(reader, text, database)).rejects.toThrow(refusal.message);
    expect(asked()).toBeGreaterThan(afterFirst);
  });
});
