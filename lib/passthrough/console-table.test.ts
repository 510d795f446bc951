import { describe, expect, it } from "vitest";
import { exampleValue, getConsoleTable } from "./console-table";

describe("pass-through console table", () => {
  it("lists the installed pmxt-core's exchanges and documented methods", () => {
    const table = getConsoleTable();
    expect(table.exchanges).toEqual(expect.arrayContaining(["polymarket", "kalshi", "mock"]));
    const names = table.methods.map((m) => m.name);
    expect(names).toEqual(expect.arrayContaining(["fetchMarkets", "fetchOrderBook", "createOrder"]));
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });

  it("does not offer pmxt-core's test hook, which is not part of its interface", () => {
    const names = getConsoleTable().methods.map((m) => m.name);
    expect(names).not.toContain("testDummyMethod");
    expect(names.filter((name) => name.startsWith("test"))).toEqual([]);
  });

  it("prefills required args and a small options object", () => {
    const byName = new Map(getConsoleTable().methods.map((m) => [m.name, m]));
    expect(byName.get("fetchOrderBook")?.example).toEqual([""]);
    const markets = byName.get("fetchMarkets");
    expect(markets?.example).toHaveLength(1);
    expect(markets?.args[0]?.fields).toContain("limit");
    expect(markets?.example[0]).toMatchObject({ limit: 10 });
  });

  it.each([
    [{ type: "string" }, ""],
    [{ type: "integer" }, 0],
    [{ type: "boolean" }, false],
    [{ enum: ["buy", "sell"] }, "buy"],
    [{ type: "object", required: ["side"], properties: { side: { $ref: "#/components/schemas/Side" }, x: { type: "number" } } }, { side: "buy" }],
    [{ oneOf: [{ type: "number" }, { type: "string" }] }, 0],
  ])("example of %j", (schema, expected) => {
    expect(exampleValue(schema, { Side: { type: "string", enum: ["buy", "sell"] } })).toEqual(expected);
  });
});
