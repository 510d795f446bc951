import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull, like } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db";
import { accounts, apiKeys } from "@/lib/db/schema";
import { InvalidParameterError, NotFoundError } from "@/lib/errors";
import type { Plan } from "./plans";
import { invalidatePrincipals } from "./principal-cache";

/**
 * API keys: `brier_live_` + 256 random bits in base64url (43 characters). Only the SHA-256 of a
 * key is stored: a key is shown once, at creation, and can never be read back. A plain hash
 * (not argon2) is right here: the secret has 256 bits of entropy, so it cannot be guessed from
 * its hash, and a lookup must cost microseconds on every request.
 */

export const KEY_PREFIX = "brier_live_";
const RANDOM_BYTES = 32;
const VISIBLE_RANDOM_CHARS = 8;
const keyPattern = /^brier_live_[A-Za-z0-9_-]{43}$/;

export function isWellFormedKey(value: string): boolean {
  return keyPattern.test(value);
}

export function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export function generateKey(): { key: string; prefix: string; hash: string } {
  const key = KEY_PREFIX + randomBytes(RANDOM_BYTES).toString("base64url");
  return { key, prefix: key.slice(0, KEY_PREFIX.length + VISIBLE_RANDOM_CHARS), hash: hashKey(key) };
}

export const keyName = z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters");

/** What a key looks like outside the database: never its hash. */
export const apiKeyPublic = z.object({
  id: z.uuid(),
  name: z.string(),
  prefix: z.string(),
  createdAt: z.date(),
  lastUsedAt: z.date().nullable(),
  revokedAt: z.date().nullable(),
});
export type ApiKeyPublic = z.infer<typeof apiKeyPublic>;

export interface CreatedApiKey extends ApiKeyPublic {
  /** The full key. Returned once, here, and nowhere else. */
  key: string;
}

export async function createApiKey(db: Db, accountId: string, name: string): Promise<CreatedApiKey> {
  const parsedName = keyName.safeParse(name);
  if (!parsedName.success) throw new InvalidParameterError("name", `name ${parsedName.error.issues[0]?.message}`);
  const { key, prefix, hash } = generateKey();
  const [row] = await db.insert(apiKeys).values({ accountId, name: parsedName.data, prefix, hash }).returning();
  if (row === undefined) throw new Error("insert into api_keys returned no row");
  return { ...apiKeyPublic.parse(row), key };
}

export async function listApiKeys(db: Db, accountId: string): Promise<ApiKeyPublic[]> {
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.accountId, accountId)).orderBy(desc(apiKeys.createdAt));
  return rows.map((row) => apiKeyPublic.parse(row));
}

/** Revokes one key of an account. Unknown ids and other accounts' keys are both "not found". */
export async function revokeApiKey(db: Db, accountId: string, keyId: string): Promise<ApiKeyPublic> {
  if (!z.uuid().safeParse(keyId).success) throw new NotFoundError("API key", keyId);
  invalidatePrincipals();
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
    .returning();
  invalidatePrincipals();
  if (row !== undefined) return apiKeyPublic.parse(row);
  const [existing] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.accountId, accountId)));
  if (existing === undefined) throw new NotFoundError("API key", keyId);
  return apiKeyPublic.parse(existing);
}

/**
 * Revokes every active key whose visible prefix starts with `prefix` (admin CLI). Refuses a
 * prefix shorter than the visible part, so one typo cannot revoke many accounts' keys.
 */
export async function revokeApiKeysByPrefix(db: Db, prefix: string): Promise<ApiKeyPublic[]> {
  if (!prefix.startsWith(KEY_PREFIX) || prefix.length < KEY_PREFIX.length + VISIBLE_RANDOM_CHARS) {
    throw new InvalidParameterError(
      "prefix",
      `prefix must be the key's visible prefix (${KEY_PREFIX} followed by ${VISIBLE_RANDOM_CHARS} characters)`,
    );
  }
  const visible = prefix.slice(0, KEY_PREFIX.length + VISIBLE_RANDOM_CHARS);
  invalidatePrincipals();
  const escaped = visible.replace(/[\\%_]/g, (c) => `\\${c}`);
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(like(apiKeys.prefix, `${escaped}%`), isNull(apiKeys.revokedAt)))
    .returning();
  invalidatePrincipals();
  return rows.map((row) => apiKeyPublic.parse(row));
}

export interface KeyPrincipal {
  keyId: string;
  accountId: string;
  email: string;
  plan: Plan;
}

/**
 * Resolves a presented key to its account. Always a database read (one indexed lookup): a
 * revocation is seen by the very next request on every instance.
 */
export async function findActiveKey(db: Db, key: string): Promise<KeyPrincipal | undefined> {
  const [row] = await db
    .select({ keyId: apiKeys.id, accountId: apiKeys.accountId, email: accounts.email, plan: accounts.plan })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(and(eq(apiKeys.hash, hashKey(key)), isNull(apiKeys.revokedAt)))
    .limit(1);
  return row;
}
