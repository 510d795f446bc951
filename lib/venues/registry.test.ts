import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildableExchanges } from "./factory";
import { findMethod, getVenueRegistry, isExchangeKey } from "./registry";

const verbs = JSON.parse(readFileSync("node_modules/pmxt-core/dist/server/method-verbs.json", "utf8")) as Record<string, unknown>;

describe("venue registry (read from the installed pmxt-core)", () => {
  it("lists every pmxt-core exchange key, and the factory can build each", () => {
    const { exchanges } = getVenueRegistry();
    for (const key of ["polymarket", "kalshi", "kalshi-demo", "limitless", "mock", "router", "gemini-titan"]) {
      expect(exchanges).toContain(key);
    }
    expect([...exchanges].sort()).toEqual([...buildableExchanges].sort());
  });

  it("has every documented method with its verb and positional args", () => {
    const { methods } = getVenueRegistry();
    expect(methods.size).toBe(Object.keys(verbs).length);
    expect(findMethod("fetchOHLCV")).toMatchObject({ verb: "get", minArgs: 2, maxArgs: 2 });
    expect(findMethod("fetchOHLCV")?.args[1]?.schema.properties?.resolution).toEqual({ type: "string" });
    expect(findMethod("createOrder")).toMatchObject({ verb: "post", minArgs: 1, maxArgs: 1 });
    expect(findMethod("getExecutionPrice")?.args.map((a) => a.schema.type ?? a.schema.$ref)).toEqual([
      "#/components/schemas/OrderBook",
      "string",
      "number",
    ]);
    expect(findMethod("close")).toMatchObject({ minArgs: 0, maxArgs: 0 });
  });

  it("never resolves object internals as methods or exchanges", () => {
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "callApi", "http"]) {
      expect(findMethod(name)).toBeUndefined();
      expect(isExchangeKey(name)).toBe(false);
    }
  });
});
