import { describe, expect, it } from "vitest";
import { categories, isCategory, normalizeCategory } from "./categories";

describe("category normalization", () => {
  it.each([
    ["Economy", [], "Economics"],
    ["Climate and Weather", [], "Weather"],
    ["Economics", [], "Economics"],
    ["Bitcoin", [], "Crypto"],
    ["Entertainment", [], "Culture"],
    ["Tech", [], "Science & Tech"],
    ["Science", [], "Science & Tech"],
    ["Finance", [], "Finance"],
    ["Mentions", [], "Culture"],
    ["  SPORTS ", [], "Sports"],
    [undefined, ["Unknown tag", "NBA"], "Sports"],
    ["Something new", ["Geopolitics"], "World"],
    ["Something new", [], "Other"],
    [null, [], "Other"],
  ] as const)("%j with tags %j -> %s", (category, tags, expected) => {
    expect(normalizeCategory(category, tags)).toBe(expected);
  });

  it("only ever returns one of the fixed set", () => {
    for (const value of ["x", "Politics", "weather", ""]) expect(isCategory(normalizeCategory(value))).toBe(true);
    expect(categories).toHaveLength(10);
    expect(isCategory("politics")).toBe(false);
  });
});
