import { describe, expect, it } from "vitest";
import { formatChange, formatPrice, formatSize, marketTitle } from "./format";

describe("display units", () => {
  it.each([
    [0.63, "63¢"],
    [0.634, "63.4¢"],
    [0.15000000000000002, "15¢"],
    [0.0015, "0.15¢"],
    [0, "0¢"],
    [1, "100¢"],
    [null, "–"],
  ])("price %s shows as %s", (price, text) => {
    expect(formatPrice(price)).toBe(text);
  });

  it.each([
    [0.021, "+2.1¢", "up"],
    [-0.05, "−5¢", "down"],
    [0.00001, "0¢", "muted"],
    [-0.004, "−0.4¢", "down"],
  ])("24h change %s shows as %s", (change, text, tone) => {
    expect(formatChange(change)).toEqual({ text, tone });
  });

  it("sizes are whole numbers", () => {
    expect(formatSize(1234.56)).toBe("1,235");
    expect(formatSize(undefined)).toBe("–");
  });
});

describe("marketTitle", () => {
  it.each([
    ["Will it rain in Lisbon on Friday? - Will it rain in Lisbon on Friday?", "Will it rain in Lisbon on Friday?"],
    ["Lisbon weather - Will it rain on Friday?", "Lisbon weather - Will it rain on Friday?"],
    ["A - B - A - B", "A - B"],
    ["Plain question?", "Plain question?"],
    [" - ", " - "],
  ])("%s", (title, shown) => {
    expect(marketTitle(title)).toBe(shown);
  });
});
