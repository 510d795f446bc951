import { describe, expect, it } from "vitest";
import { compareOption, comparePicks } from "./option";
import { kx, pm } from "@/test/helpers/matching-markets";

describe("option comparator", () => {
  it("reads the same option written shorter as the same", () => {
    expect(comparePicks(["springfield", "atoms"], ["springfield", "a"])).toBe("abbrev");
    expect(comparePicks(["ada", "quill"], ["quill"])).toBe("abbrev");
    expect(comparePicks(["ada", "quill"], ["bram", "okafor"])).toBe("different");
  });

  it("answers same, conflict, one side (named in the other's question or not), absent", () => {
    const a = kx("Mayor of Exampletown in 2030?", "Quinn Example", "Quinn Example wins");
    const b = kx("Mayor of Exampletown in 2030?", "Rowan Sample", "Rowan Sample wins");
    expect(compareOption(a, a)).toMatchObject({ state: "same", abbreviated: false });
    expect(compareOption(a, b)).toMatchObject({ state: "conflict", a: ["quinn", "example"], b: ["rowan", "sample"] });
    const question = pm("Exampletown mayor", "Will Quinn Example be Mayor of Exampletown in 2030?");
    const other = pm("Exampletown mayor", "Will the next Mayor of Exampletown be a newcomer in 2030?");
    expect(compareOption(a, question)).toMatchObject({ state: "oneSide", inOtherQuestion: true, a: ["quinn", "example"], b: null });
    expect(compareOption(a, other)).toMatchObject({ state: "oneSide", inOtherQuestion: false });
    const plain = pm("Rain", "Will it rain in Exampletown on 2030-05-01?");
    expect(compareOption(plain, plain).state).toBe("absent");
  });
});
