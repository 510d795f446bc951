import { describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { getDb } from "@/lib/db";
import { usage } from "@/lib/db/schema";
import { makeKey } from "@/test/helpers/keys";
import { listKeysWithUsage, USAGE_WINDOW_HOURS, usagePerKey } from "./usage";

const HOUR = 3_600_000;
const now = new Date(Date.UTC(2026, 2, 10, 12, 30));

function usageRow(accountId: string, keyId: string | null, createdAt: Date, status = 200) {
  return { accountId, keyId, method: "GET", path: "/v0/markets", status, durationMs: 3, requestId: "r", createdAt };
}

describe("requests per key over 24 hours", () => {
  it("counts each key's requests by hour, errors apart, and nothing else", async () => {
    const db = await getDb();
    const { keyId, accountId } = await makeKey("pro");
    const second = await createApiKey(db, accountId, "second");
    const stranger = await makeKey("pro");
    await db.insert(usage).values([
      usageRow(accountId, keyId, new Date(now.getTime() - 1000)), // this hour
      usageRow(accountId, keyId, new Date(now.getTime() - 2000), 429),
      usageRow(accountId, keyId, new Date(now.getTime() - 5 * HOUR)),
      usageRow(accountId, keyId, new Date(now.getTime() - 23 * HOUR - 20 * 60_000)), // first hour of the window
      usageRow(accountId, keyId, new Date(now.getTime() - 25 * HOUR)), // outside
      usageRow(accountId, second.id, new Date(now.getTime() - HOUR), 500),
      usageRow(accountId, null, new Date(now.getTime() - 1000)), // dashboard session: no key
      usageRow(stranger.accountId, stranger.keyId, new Date(now.getTime() - 1000)),
    ]);

    const perKey = await usagePerKey(db, accountId, now);
    expect([...perKey.keys()].sort()).toEqual([keyId, second.id].sort());
    const first = perKey.get(keyId);
    expect(first?.total).toBe(4);
    expect(first?.errors).toBe(1);
    expect(first?.hourly).toHaveLength(USAGE_WINDOW_HOURS);
    expect(first?.hourly[23]).toBe(2);
    expect(first?.hourly[18]).toBe(1);
    expect(first?.hourly[0]).toBe(1);
    expect(first?.hourly.reduce((a, b) => a + b, 0)).toBe(4);
    expect(perKey.get(second.id)).toMatchObject({ total: 1, errors: 1 });
  });

  it("lists every key of the account, revoked ones too, with zero usage when unused", async () => {
    const db = await getDb();
    const { keyId, accountId } = await makeKey("free");
    const unused = await createApiKey(db, accountId, "unused");
    await revokeApiKey(db, accountId, keyId);
    const keys = await listKeysWithUsage(db, accountId, now);
    expect(keys.map((k) => k.id).sort()).toEqual([keyId, unused.id].sort());
    expect(keys.find((k) => k.id === keyId)?.revokedAt).toBeInstanceOf(Date);
    expect(keys.find((k) => k.id === unused.id)?.usage).toEqual({ total: 0, errors: 0, hourly: new Array(24).fill(0) });
    expect(JSON.stringify(keys)).not.toContain("hash");
  });
});
