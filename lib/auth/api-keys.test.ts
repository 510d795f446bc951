import { describe, expect, it } from "vitest";
import { ensureAccount } from "@/lib/auth/accounts";
import { getDb } from "@/lib/db";
import { apiKeys } from "@/lib/db/schema";
import { admitKey } from "./admission";
import {
  createApiKey,
  generateKey,
  hashKey,
  isWellFormedKey,
  listApiKeys,
  revokeApiKey,
  revokeApiKeysByPrefix,
} from "./api-keys";

describe("key generation", () => {
  it("makes brier_live_ keys with 256 random bits in base64url", () => {
    const { key, prefix, hash } = generateKey();
    expect(key).toMatch(/^brier_live_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key.slice("brier_live_".length), "base64url")).toHaveLength(32);
    expect(prefix).toBe(key.slice(0, 19));
    expect(hash).toBe(hashKey(key));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("never repeats", () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateKey().key));
    expect(keys.size).toBe(1000);
  });

  it.each([
    ["brier_live_" + "a".repeat(43), true],
    ["brier_live_" + "a".repeat(42), false],
    ["brier_test_" + "a".repeat(43), false],
    ["brier_live_" + "a".repeat(42) + "=", false],
    ["", false],
  ])("isWellFormedKey(%s) = %s", (key, expected) => {
    expect(isWellFormedKey(key)).toBe(expected);
  });
});

describe("key storage", () => {
  it("stores only the hash and a visible prefix, shows the key once", async () => {
    const db = await getDb();
    const { account } = await ensureAccount(db, "store@example.test");
    const created = await createApiKey(db, account.id, "ci");
    const [row] = await db.select().from(apiKeys);
    expect(row?.hash).toBe(hashKey(created.key));
    expect(JSON.stringify(row)).not.toContain(created.key.slice(19));
    const listed = await listApiKeys(db, account.id);
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(created.key);
    expect(listed[0]).not.toHaveProperty("hash");
  });

  it("answers not found for another account's key and for junk ids", async () => {
    const db = await getDb();
    const { account: owner } = await ensureAccount(db, "owner@example.test");
    const { account: other } = await ensureAccount(db, "other@example.test");
    const key = await createApiKey(db, owner.id, "mine");
    await expect(revokeApiKey(db, other.id, key.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(revokeApiKey(db, other.id, "nope")).rejects.toMatchObject({ code: "not_found" });
    expect(await admitKey(db, key.key)).toBeDefined();
  });

  it("revokes by visible prefix and refuses a prefix too short to be one key's", async () => {
    const db = await getDb();
    const { account } = await ensureAccount(db, "prefix@example.test");
    const key = await createApiKey(db, account.id, "p");
    await expect(revokeApiKeysByPrefix(db, "brier_live_")).rejects.toMatchObject({ code: "invalid_parameter" });
    await expect(revokeApiKeysByPrefix(db, "%")).rejects.toMatchObject({ code: "invalid_parameter" });
    const revoked = await revokeApiKeysByPrefix(db, key.prefix);
    expect(revoked.map((k) => k.id)).toEqual([key.id]);
    expect(await admitKey(db, key.key)).toBeUndefined();
  });

  it("validates key names", async () => {
    const db = await getDb();
    const { account } = await ensureAccount(db, "names@example.test");
    await expect(createApiKey(db, account.id, "  ")).rejects.toMatchObject({ code: "invalid_parameter" });
    await expect(createApiKey(db, account.id, "x".repeat(101))).rejects.toMatchObject({ code: "invalid_parameter" });
  });
});
