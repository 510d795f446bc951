import { describe, expect, it } from "vitest";
import { z } from "zod";
import { cursorParam, decodeCursor, encodeCursor, parseInput, parseQuery } from "./input";

const query = z.object({ limit: z.coerce.number().int().max(10, "limit must be at most 10"), q: z.string().max(3, "too long").optional() }).strict();

describe("input validation", () => {
  it.each([
    ["limit=11", "limit", "limit must be at most 10"],
    ["limit=1&q=abcd", "q", "q: too long"],
    ["limit=1&limit=2", "limit", "limit was sent more than once"],
    ["limit=1&color=red", "color", "color is not a parameter of this endpoint"],
  ])("?%s -> 400 naming %s", (qs, parameter, message) => {
    expect(() => parseQuery(query, new URLSearchParams(qs))).toThrow(expect.objectContaining({ code: "invalid_parameter", details: { parameter }, message }));
  });

  it("returns the parsed values", () => {
    expect(parseQuery(query, new URLSearchParams("limit=3&q=ab"))).toEqual({ limit: 3, q: "ab" });
    expect(parseInput(z.string().email("email must be a valid email address"), "a@b.co", "email")).toBe("a@b.co");
  });

  it("names the given parameter for a single value", () => {
    expect(() => parseInput(z.string().min(10, "must be at least 10 characters"), "short", "password")).toThrow(
      expect.objectContaining({ details: { parameter: "password" }, message: "password: must be at least 10 characters" }),
    );
  });
});

describe("cursor codec", () => {
  const position = z.tuple([z.literal("t"), z.number().int().positive()]);
  const paged = z.object({ cursor: cursorParam(position).optional() }).strict();

  it("gives back the position it encoded, typed", () => {
    expect(parseQuery(paged, new URLSearchParams({ cursor: encodeCursor(["t", 42]) }))).toEqual({ cursor: ["t", 42] });
    expect(decodeCursor(encodeCursor([null, "x"]))).toEqual([null, "x"]);
  });

  it.each([["not base64!"], [encodeCursor(["i", 42])], [Buffer.from("{").toString("base64url")], ["a".repeat(600)]])("refuses %s naming cursor", (raw) => {
    expect(() => parseQuery(paged, new URLSearchParams({ cursor: raw }))).toThrow(
      expect.objectContaining({ code: "invalid_parameter", details: { parameter: "cursor" } }),
    );
  });
});
