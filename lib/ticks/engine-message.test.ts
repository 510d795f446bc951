import { describe, expect, it } from "vitest";
import { cleanEngineMessage } from "./engine-message";

describe("cleanEngineMessage", () => {
  it.each([
    ["Code: 62. DB::Exception: Syntax error: failed at position 8 (SYNTAX_ERROR)", "Syntax error: failed at position 8"],
    ["DB::Exception: Unknown table expression identifier 'x' (UNKNOWN_TABLE)", "Unknown table expression identifier 'x'"],
    ["Memory limit exceeded", "Memory limit exceeded"],
  ])("%s -> %s", (raw, clean) => {
    expect(cleanEngineMessage(new Error(raw))).toBe(clean);
    expect(cleanEngineMessage(raw)).toBe(clean);
  });
});
