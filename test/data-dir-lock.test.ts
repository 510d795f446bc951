import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { DataDirLockedError, lockDataDir } from "@/lib/db/data-dir-lock";

/**
 * A command locks only the embedded stores it opens. This process plays the
 * running server by holding a data dir's locks; the admin CLI runs in its own process against it.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "brier-lock-"));
  dirs.push(dir);
  return dir;
}

function admin(dataDir: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.resolve("node_modules/.bin/tsx"), ["--conditions=react-server", "scripts/admin.ts", ...args], {
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "error" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("data-dir locks, one per embedded store", () => {
  it("lets a second process in only where it needs no store the holder owns", () => {
    const dir = tempDir();
    lockDataDir(dir, "ch");
    lockDataDir(dir, "ch"); // re-entrant in the holder
    expect(() => lockDataDir(dir, "pg")).not.toThrow();
  });

  it("create-key runs while a server holds the embedded chDB store (it opens only the catalog database)", async () => {
    const dir = tempDir();
    lockDataDir(dir, "ch");
    const res = await admin(dir, ["create-key", "--email", "lock@b.c", "--plan", "pro"]);
    expect(res.stderr).not.toContain("in use");
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^brier_live_/);
  }, 120_000);

  if (config.embeddedPostgres) {
    it("create-key is refused, naming the store and the holder, while a server holds the embedded PGlite store", async () => {
      const dir = tempDir();
      lockDataDir(dir, "pg");
      const res = await admin(dir, ["create-key", "--email", "lock@b.c", "--plan", "pro"]);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`PGlite (unset DATABASE_URL) store in ${dir} is in use by process ${process.pid}`);
      expect(res.stdout).toBe("");
    }, 120_000);
  }

  it("throws DataDirLockedError for a live holder and takes over a dead one's lock", async () => {
    const dir = tempDir();
    const { writeFileSync } = await import("node:fs");
    writeFileSync(path.join(dir, ".lock-pg"), "1"); // pid 1 is alive and is not us
    expect(() => lockDataDir(dir, "pg")).toThrow(DataDirLockedError);
    writeFileSync(path.join(dir, ".lock-ch"), "999999999"); // no such process
    expect(() => lockDataDir(dir, "ch")).not.toThrow();
  });
});
