import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, inArray, isNull, like } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db";
import { apiKeys } from "@/lib/db/schema/api-keys";
import { InvalidParameterError, NotFoundError } from "@/lib/errors";
import { parseInput } from "@/lib/input";
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

export const keyName = z.string().trim().min(1, "name must not be empty").max(100, "name must be at most 100 characters");

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
  const parsedName = parseInput(keyName, name, "name");
  const { key, prefix, hash } = generateKey();
  const [row] = await db.insert(apiKeys).values({ accountId, name: parsedName, prefix, hash }).returning();
  if (row === undefined) throw new Error("insert into api_keys returned no row");
  return { ...apiKeyPublic.parse(row), key };
}

export async function listApiKeys(db: Db, accountId: string): Promise<ApiKeyPublic[]> {
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.accountId, accountId)).orderBy(desc(apiKeys.createdAt));
  return rows.map((row) => apiKeyPublic.parse(row));
}

/** The keys of several accounts at once, newest first per account (the operator's Accounts page). */
export async function listKeysOfAccounts(db: Db, accountIds: readonly string[]): Promise<Map<string, ApiKeyPublic[]>> {
  const out = new Map<string, ApiKeyPublic[]>();
  if (accountIds.length === 0) return out;
  const rows = await db.select().from(apiKeys).where(inArray(apiKeys.accountId, [...accountIds])).orderBy(desc(apiKeys.createdAt));
  for (const row of rows) out.set(row.accountId, [...(out.get(row.accountId) ?? []), apiKeyPublic.parse(row)]);
  return out;
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

/**
 * Which of these key ids are still active (not revoked): long-lived streams re-check their keys
 * with it, so a revocation closes open connections too, on every instance.
 */
export async function activeKeyIds(db: Db, keyIds: readonly string[]): Promise<Set<string>> {
  if (keyIds.length === 0) return new Set();
  const rows = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(inArray(apiKeys.id, [...keyIds]), isNull(apiKeys.revokedAt)));
  return new Set(rows.map((row) => row.id));
}
