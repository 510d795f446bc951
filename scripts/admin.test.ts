import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scratchRoot, seedMigratedDatabase } from "@/test/helpers/scratch";

// The CLI end to end, as a user runs it: its own process on its own DATA_DIR (and on the test's
// PostgreSQL database when the suite runs against PostgreSQL).
const dataDir = mkdtempSync(path.join(scratchRoot(), "brier-cli-"));
// The embedded database starts migrated, as the suite's own stores do (test/global-setup.ts): the
// first command then measures the CLI, not the migrations.
seedMigratedDatabase(dataDir);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function admin(args: string[], stdin = ""): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.resolve("node_modules/.bin/tsx"), ["--conditions=react-server", "scripts/admin.ts", ...args], {
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "error" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe("admin CLI", () => {
  let prefix = "";

  it("create-key prints only the key on stdout", async () => {
    const res = await admin(["create-key", "--email", "a@b.c", "--plan", "enterprise", "--name", "laptop"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^brier_live_[A-Za-z0-9_-]{43}\n$/);
    expect(res.stderr).toContain("Created account a@b.c");
    prefix = res.stdout.slice(0, 19);
  });

  it("list-keys shows the prefix, never the key", async () => {
    const res = await admin(["list-keys", "--email", "a@b.c"]);
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split("\n");
    expect(lines[0]).toBe("prefix\tname\tcreated_at\tlast_used_at\trevoked_at");
    expect(lines[1]?.split("\t").slice(0, 2)).toEqual([prefix, "laptop"]);
  });

  it("set-plan and set-password (from stdin)", async () => {
    expect((await admin(["set-plan", "--email", "a@b.c", "--plan", "pro"])).stdout).toBe("pro\n");
    const set = await admin(["set-password", "--email", "a@b.c"], "a long enough password\n");
    expect(set.code).toBe(0);
    expect(set.stderr).toContain("Password set");
    const short = await admin(["set-password", "--email", "a@b.c"], "short\n");
    expect(short.code).toBe(1);
    expect(short.stderr).toContain("at least 10 characters");
  });

  it("revoke-key by prefix, then the key is listed as revoked", async () => {
    const res = await admin(["revoke-key", "--prefix", prefix]);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`${prefix}\n`);
    const again = await admin(["revoke-key", "--prefix", prefix]);
    expect(again.code).toBe(1);
    const list = await admin(["list-keys", "--email", "a@b.c"]);
    expect(list.stdout.trim().split("\n")[1]?.split("\t")[4]).not.toBe("-");
  });

  it.each([
    [["create-key", "--email", "a@b.c"], "--plan is required"],
    [["create-key", "--email", "a@b.c", "--plan", "gold"], "--plan must be one of"],
    [["create-key", "--bogus"], "Unknown option"],
    [["frobnicate"], "Unknown command"],
  ])("usage errors exit 2 with a message: %s", async (args, message) => {
    const res = await admin(args);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe("");
    expect(res.stderr).toContain(message);
  });
});

describe("admin ingest", () => {
  it("polls the mock venue into the catalog and prints one line per venue", async () => {
    const res = await admin(["ingest", "--venue", "mock"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^mock\tsucceeded\tevents=\d+\tmarkets=[1-9]\d*\tclosed=0\t\d+ms\n$/);
    expect(res.stderr).toContain("mock");
  });

  it("refuses an unknown venue before polling anything", async () => {
    const res = await admin(["ingest", "--venue", "nosuch"]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("unknown venue nosuch");
  });
});
