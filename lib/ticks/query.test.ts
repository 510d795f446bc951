import { describe, expect, it } from "vitest";
import { bind, checkedParams } from "./query";

describe("typed binds (lib/ticks/query.ts)", () => {
  it("pass each value under its placeholder, times converted to DateTime64(3) text in UTC", () => {
    expect(checkedParams("SELECT 1 WHERE market = {market:String} AND timestamp <= {at:DateTime64(3)} LIMIT {n:UInt32}", {
      market: bind.string("0xab"),
      at: bind.time(Date.UTC(2026, 0, 2, 3, 4, 5, 678)),
      n: bind.uint32(10),
    })).toEqual({ market: "0xab", at: "2026-01-02 03:04:05.678", n: 10 });
  });

  it("refuse a placeholder without a bind, a bind of another type and a bind without a placeholder", () => {
    expect(() => checkedParams("SELECT {a:String}", {})).toThrow("no bind for {a:String}");
    expect(() => checkedParams("SELECT {a:UInt32}", { a: bind.string("1") })).toThrow("{a:UInt32} is bound as String");
    expect(() => checkedParams("SELECT 1", { a: bind.string("x") })).toThrow("binds without a placeholder: a");
  });

  it("refuse values their type cannot hold before the engine sees them", () => {
    expect(() => bind.uint32(1.5)).toThrow();
    expect(() => bind.uint64("1; DROP")).toThrow();
    expect(() => bind.time(Number.NaN)).toThrow();
  });
});
