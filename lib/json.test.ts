import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, nestsDeeperThan, parseUntrustedJson } from "./json";

describe("untrusted JSON", () => {
  const nested = (levels: number) => "[".repeat(levels) + "]".repeat(levels);

  it.each([
    [nested(MAX_JSON_DEPTH), false],
    [nested(MAX_JSON_DEPTH + 1), true],
    [`{"a":${nested(MAX_JSON_DEPTH - 1)}}`, false],
    [`{"a":${nested(MAX_JSON_DEPTH)}}`, true],
    // Brackets inside strings, escaped quotes included, are text, not nesting.
    [JSON.stringify({ s: "[".repeat(500) }), false],
    [JSON.stringify({ s: `\\"${"{".repeat(500)}` }), false],
    [`[${"[]".repeat(10_000)}]`, false],
  ])("%#: deeper than the limit: %s", (text, deeper) => {
    expect(nestsDeeperThan(text)).toBe(deeper);
  });

  it("parses what is within the limit and reports syntax and depth without throwing", () => {
    expect(parseUntrustedJson('{"args":[1,{"b":[2]}]}')).toEqual({ ok: true, value: { args: [1, { b: [2] }] } });
    expect(parseUntrustedJson("{not json")).toEqual({ ok: false, reason: "syntax" });
    expect(parseUntrustedJson(nested(10_000))).toEqual({ ok: false, reason: "depth" });
  });
});
