import "server-only";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ensureAccount, generatePassword, setOperator, setPassword, setPlan, verifyCredentials } from "@/lib/auth/accounts";
import { activeKeyIds, createApiKey } from "@/lib/auth/api-keys";
import { config } from "@/lib/config";
import type { Db } from "@/lib/db";
import { hasSyntheticRun } from "@/lib/recorder/journal";
import { demoMarketsFromCatalog } from "@/lib/demo/ticks";

/**
 * What `npm run demo` makes and reuses (README, "Quick start"): the operator account of the demo
 * and its enterprise key, kept in `DATA_DIR/demo-credentials.json` (mode 0600) so a second run
 * prints the same sign-in and key. The key is stored in clear there, and only there: it is a demo
 * data dir's key, and the file sits beside the stores, which are no better protected. A real
 * deployment creates its accounts with `admin create-key` and never runs the demo.
 */

export const DEMO_EMAIL = "operator@brier.local";
const CREDENTIALS_FILE = "demo-credentials.json";

export interface DemoCredentials {
  email: string;
  password: string;
  key: string;
  keyId: string;
}

function credentialsPath(): string {
  return path.join(path.resolve(config.dataDir), CREDENTIALS_FILE);
}

function readCredentials(): DemoCredentials | undefined {
  try {
    const saved = JSON.parse(readFileSync(credentialsPath(), "utf8")) as Partial<DemoCredentials>;
    if (typeof saved.email !== "string" || typeof saved.password !== "string" || typeof saved.key !== "string" || typeof saved.keyId !== "string") return undefined;
    return { email: saved.email, password: saved.password, key: saved.key, keyId: saved.keyId };
  } catch {
    return undefined;
  }
}

/** Does the catalog hold the mock venue's markets already? */
export async function hasDemoCatalog(db: Db): Promise<boolean> {
  return (await demoMarketsFromCatalog(db, "mock", 1)).length > 0;
}

/** Was a demo history written into these stores already (its journal run)? */
export async function hasDemoHistory(db: Db): Promise<boolean> {
  return hasSyntheticRun(db);
}

/**
 * The demo's operator: the saved credentials when they still sign in and the key is active;
 * otherwise the account is (re)made an enterprise operator with a new password and key, saved.
 */
export async function demoOperator(db: Db): Promise<{ credentials: DemoCredentials; reused: boolean }> {
  const saved = readCredentials();
  if (saved !== undefined) {
    const account = await verifyCredentials(db, saved.email, saved.password);
    if (account !== undefined && account.operator && account.plan === "enterprise" && (await activeKeyIds(db, [saved.keyId])).has(saved.keyId)) {
      return { credentials: saved, reused: true };
    }
  }
  const { account } = await ensureAccount(db, DEMO_EMAIL);
  await setPlan(db, account.email, "enterprise");
  await setOperator(db, account.email, true);
  const password = generatePassword();
  await setPassword(db, account.email, password);
  const key = await createApiKey(db, account.id, "demo");
  const credentials: DemoCredentials = { email: account.email, password, key: key.key, keyId: key.id };
  writeFileSync(credentialsPath(), `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return { credentials, reused: false };
}
