import "server-only";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { config, ConfigError } from "@/lib/config";

let cached: string | undefined;

/**
 * The secret that signs session cookies. NEXTAUTH_SECRET when set. Otherwise, on the embedded
 * setup only, a random one generated on first use and kept (mode 0600) in DATA_DIR, so a fresh
 * install has a unique secret and nothing default ever ships. Several instances on a shared
 * PostgreSQL must share one secret, so that setup requires NEXTAUTH_SECRET.
 */
export function getAuthSecret(): string {
  if (cached !== undefined) return cached;
  if (config.auth.secret !== undefined) return (cached = config.auth.secret);
  if (!config.embeddedPostgres && config.nodeEnv === "production") {
    throw new ConfigError("NEXTAUTH_SECRET must be set when DATABASE_URL is set (all instances must share it)");
  }
  const file = path.join(config.dataDir, "auth-secret");
  try {
    cached = readFileSync(file, "utf8").trim();
    if (cached.length >= 32) return cached;
  } catch {
    // First start: generate below.
  }
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
    cached = secret;
  } catch {
    // Another process won the race: use its secret.
    cached = readFileSync(file, "utf8").trim();
  }
  return cached;
}
