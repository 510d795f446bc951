import { describe, expect, it } from "vitest";
import { parseInterval } from "../extract";
import { compareQuantity, describeInterval } from "./quantity";

const q = (text: string) => parseInterval(text);

describe("quantity comparator", () => {
  it("answers same within a reporting step, with the tick flagged", () => {
    const r = compareQuantity(q("above $100"), q("$100 or above"));
    expect(r.state).toBe("same");
    expect(r.cmp).toBe("equal");
    expect(r.tick).toBe(true);
  });

  it("answers a nesting as a conflict with its direction", () => {
    const r = compareQuantity(q("above 5%"), q("above 4%"));
    expect(r.state).toBe("conflict");
    expect(r.cmp).toBe("sub");
    expect(compareQuantity(q("above 4%"), q("above 5%")).cmp).toBe("sup");
  });

  it("knows complements: apart and together every value", () => {
    const r = compareQuantity(q("4.4% or below"), q("above 4.4%"));
    expect(r.cmp).toBe("disjoint");
    expect(r.complement).toBe(true);
    expect(compareQuantity(q("below 3%"), q("above 5%")).complement).toBe(false);
  });

  it("one side only, neither, and units that do not compare", () => {
    expect(compareQuantity(q("above 4%"), null)).toMatchObject({ state: "oneSide", cmp: null });
    expect(compareQuantity(null, null)).toMatchObject({ state: "absent", cmp: "equal" });
    expect(compareQuantity(q("above 4%"), q("above $4"))).toMatchObject({ state: "conflict", cmp: null });
  });

  it("describes an interval for display", () => {
    const i = q("above $150,000");
    expect(i).not.toBeNull();
    if (i !== null) expect(describeInterval(i)).toBe("> $150,000");
  });
});
