import { describe, expect, it } from "vitest";
import { exampleArgsWithIds, listOf } from "./console-args";

const ids = { outcomeId: "mock-7-yes", marketId: "mock-7", eventId: "ev-7" };
const arg = (name: string, kind = "string") => ({ name, kind, optional: false, fields: [] });

describe("console example args", () => {
  it.each([
    ["fetchOrderBook", [arg("outcomeId"), arg("side")], [""], ["mock-7-yes"]],
    ["fetchOHLCV", [arg("outcomeId"), arg("params", "object")], ["", { limit: 10 }], ["mock-7-yes", { limit: 10 }]],
    ["watchOrderBooks", [arg("outcomeIds", "unknown")], [[]], [["mock-7-yes"]]],
    ["createOrder", [arg("params", "object")], [{ marketId: "", outcomeId: "", side: "buy" }], [{ marketId: "mock-7", outcomeId: "mock-7-yes", side: "buy" }]],
    ["cancelOrder", [arg("orderId")], [""], [""]],
    ["fetchMarkets", [arg("params", "object")], [{ limit: 10 }], [{ limit: 10 }]],
  ])("%s gets real ids where it takes them", (_name, args, example, expected) => {
    expect(exampleArgsWithIds({ args, example }, ids)).toEqual(expected);
  });

  it("keeps the schema's example when the catalog has no market for the venue", () => {
    expect(exampleArgsWithIds({ args: [arg("outcomeId")], example: [""] }, undefined)).toEqual([""]);
  });
});

describe("list responses", () => {
  it("finds the rows and their scalar columns", () => {
    const list = listOf({ success: true, data: [{ marketId: "a", title: "A", outcomes: [], volume: 1 }, { marketId: "b", title: "B", closed: false }] });
    expect(list?.columns).toEqual(["marketId", "title", "volume", "closed"]);
    expect(list?.rows).toHaveLength(2);
  });

  it.each([[{ success: true, data: { bids: [], asks: [] } }], [{ success: true, data: [] }], [{ success: true, data: [1, 2] }], [null]])(
    "is not a list: %j",
    (body) => {
      expect(listOf(body)).toBeUndefined();
    },
  );
});
