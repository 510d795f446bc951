import { describe, expect, it } from "vitest";
import { accountErrors } from "@/lib/auth/usage";
import { getDb } from "@/lib/db";
import { usage } from "@/lib/db/schema";
import { makeKey } from "./helpers/keys";

const HOUR = 3_600_000;
const now = new Date(Date.UTC(2026, 2, 10, 12, 30));
const row = (accountId: string, keyId: string | null, ago: number, status: number, path = "/v0/markets") => ({
  accountId,
  keyId,
  method: "GET",
  path,
  status,
  durationMs: 3,
  requestId: `r-${ago}-${status}`,
  createdAt: new Date(now.getTime() - ago),
});

describe("an account's errors over 24 hours", () => {
  it("counts failed keyed requests by status and lists the newest, nothing else", async () => {
    const db = await getDb();
    const { keyId, accountId } = await makeKey("pro");
    const stranger = await makeKey("pro");
    await db.insert(usage).values([
      row(accountId, keyId, 1000, 429),
      row(accountId, keyId, 2000, 429),
      row(accountId, keyId, 3 * HOUR, 400, "/v0/sql"),
      row(accountId, keyId, 4 * HOUR, 200),
      row(accountId, keyId, 25 * HOUR, 500), // outside the window
      row(accountId, null, 1000, 401), // a dashboard session, not a key
      row(stranger.accountId, stranger.keyId, 1000, 500),
    ]);
    const errors = await accountErrors(db, accountId, now);
    expect(errors.total).toBe(3);
    expect(errors.byStatus).toEqual([
      { status: 429, count: 2 },
      { status: 400, count: 1 },
    ]);
    expect(errors.recent.map((e) => [e.status, e.path])).toEqual([
      [429, "/v0/markets"],
      [429, "/v0/markets"],
      [400, "/v0/sql"],
    ]);
    expect(errors.recent[0]?.at).toBe(new Date(now.getTime() - 1000).toISOString());
  });

  it("is empty for an account without failures", async () => {
    const { accountId } = await makeKey("free");
    expect(await accountErrors(await getDb(), accountId, now)).toEqual({ total: 0, byStatus: [], recent: [] });
  });
});
