import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { requiredSettingProblems } from "@/lib/server-settings.mjs";

/** `npm start` with this environment (over the parent's, without its store settings); nothing is built or listened on when a setting is refused. */
function start(env: Record<string, string>) {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ["DATABASE_URL", "NEXTAUTH_SECRET", "CLICKHOUSE_URL"]) delete base[name];
  return spawnSync(process.execPath, [path.resolve("server.mjs")], { env: { ...base, PORT: "0", NEXT_DIST_DIR: ".next-absent-for-this-test", ...env }, encoding: "utf8", timeout: 60_000 });
}

describe("required settings, checked before the server listens (README, Configuration)", () => {
  it("names NEXTAUTH_SECRET when PostgreSQL is chosen without it, or when it is weak", () => {
    expect(requiredSettingProblems({ DATABASE_URL: "postgres://db/brier" })).toEqual([expect.stringMatching(/^NEXTAUTH_SECRET: required with DATABASE_URL/)]);
    expect(requiredSettingProblems({ DATABASE_URL: "postgres://db/brier", NEXTAUTH_SECRET: "short" })).toEqual([expect.stringMatching(/^NEXTAUTH_SECRET: too weak: 5 characters/)]);
    expect(requiredSettingProblems({ NEXTAUTH_SECRET: "x".repeat(31) })).toHaveLength(1);
    expect(requiredSettingProblems({ DATABASE_URL: "postgres://db/brier", NEXTAUTH_SECRET: "x".repeat(32) })).toEqual([]);
    // Embedded: the server generates its own secret into DATA_DIR.
    expect(requiredSettingProblems({})).toEqual([]);
  });

  it("server.mjs exits 1 naming the setting, without listening", () => {
    const missing = start({ DATABASE_URL: "postgres://postgres@127.0.0.1:1/brier" });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("Brier cannot start: Invalid configuration:");
    expect(missing.stderr).toContain("NEXTAUTH_SECRET: required with DATABASE_URL");
    expect(missing.stdout).not.toContain("listening");
    const weak = start({ DATABASE_URL: "postgres://postgres@127.0.0.1:1/brier", NEXTAUTH_SECRET: "changeme" });
    expect(weak.status).toBe(1);
    expect(weak.stderr).toContain("NEXTAUTH_SECRET: too weak");
  }, 90_000);
});
