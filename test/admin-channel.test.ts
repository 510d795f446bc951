import { spawn } from "node:child_process";
import { statSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { findAccountByEmail, verifyCredentials } from "@/lib/auth/accounts";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db";
import { startAdminChannel } from "@/lib/operator/channel";
import { CHANNEL_FILE, readChannel, sendAdminCommand } from "@/lib/operator/channel-client";

// This test process plays the server: it holds the embedded stores and opens the admin channel;
// the CLI, in its own process on the same DATA_DIR, must reach it instead of the locked stores.

function admin(args: string[], stdin = ""): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.resolve("node_modules/.bin/tsx"), ["--conditions=react-server", "scripts/admin.ts", ...args], {
      env: { ...process.env, LOG_LEVEL: "error" },
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

beforeAll(async () => {
  await getDb();
  await startAdminChannel(config.dataDir);
});

describe("admin CLI while the server holds the data dir", () => {
  it("the channel file is readable by its owner only and names this process", () => {
    expect(statSync(path.join(config.dataDir, CHANNEL_FILE)).mode & 0o777).toBe(0o600);
    expect(readChannel(config.dataDir)?.pid).toBe(process.pid);
  });

  it("create-key, set-plan and set-password run in the server's process, with the CLI's output", async () => {
    const created = await admin(["create-key", "--email", "ops@example.test", "--plan", "free"]);
    expect(created.stderr).toContain(`sent to the running server, process ${process.pid}`);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^brier_live_[A-Za-z0-9_-]{43}\n$/);
    // A new account without a password: the CLI says how to give it one.
    expect(created.stderr).toContain("set-password --email ops@example.test");

    const plan = await admin(["set-plan", "--email", "ops@example.test", "--plan", "enterprise"]);
    expect(plan).toMatchObject({ code: 0, stdout: "enterprise\n" });
    expect((await findAccountByEmail(await getDb(), "ops@example.test"))?.plan).toBe("enterprise");

    const password = await admin(["set-password", "--email", "ops@example.test"], "a long enough password\n");
    expect(password.code, password.stderr).toBe(0);
    expect(await verifyCredentials(await getDb(), "ops@example.test", "a long enough password")).toMatchObject({ email: "ops@example.test" });

    const generated = await admin(["set-password", "--email", "ops@example.test", "--generate"]);
    expect(generated.code, generated.stderr).toBe(0);
    const chosen = generated.stdout.trim();
    expect(chosen).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await verifyCredentials(await getDb(), "ops@example.test", chosen)).toMatchObject({ email: "ops@example.test" });
  }, 240_000);

  it("errors and usage errors keep their exit codes through the channel", async () => {
    const missing = await admin(["set-plan", "--email", "nobody@example.test", "--plan", "pro"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("Error:");
    const usage = await admin(["set-plan", "--email", "ops@example.test", "--plan", "gold"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("--plan must be one of free, pro, enterprise");
  }, 240_000);

  it("refuses a request without the channel's token", async () => {
    const channel = readChannel(config.dataDir);
    if (channel === undefined) throw new Error("no channel");
    const said: string[] = [];
    const code = await sendAdminCommand({ ...channel, token: "not-the-token" }, ["set-plan", "--email", "ops@example.test", "--plan", "free"], "", {
      say: (m) => said.push(m),
      out: () => undefined,
    });
    expect(code).toBe(1);
    expect(said.join("\n")).toContain("wrong token");
    expect((await findAccountByEmail(await getDb(), "ops@example.test"))?.plan).toBe("enterprise");
  });
});
