import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { curlCommand } from "./curl";

describe("copy as curl", () => {
  it("builds a POST with the envelope body and the key from the environment", () => {
    expect(curlCommand("http://localhost:3000", "mock", "fetchMarkets", [{ limit: 10 }])).toBe(
      [
        "curl -sS -X POST 'http://localhost:3000/api/mock/fetchMarkets'",
        '  -H "Authorization: Bearer $BRIER_API_KEY"',
        "  -H 'Content-Type: application/json'",
        `  -d '{"args":[{"limit":10}]}'`,
      ].join(" \\\n"),
    );
  });

  it("quotes args with single quotes so the shell passes them through unchanged", () => {
    const args = ["it's $HOME `x`"];
    const command = curlCommand("http://h", "mock", "fetchOrderBook", args).replace(/^curl/, "printf '%s\\n'").replace(/ -sS -X POST| -H "[^"]*"| -H '[^']*'| -d/g, "");
    const printed = execFileSync("sh", ["-c", command], { encoding: "utf8" }).trim().split("\n");
    expect(printed.at(-1)).toBe(JSON.stringify({ args }));
  });
});
