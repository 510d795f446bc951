import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { accounts } from "@/lib/db/schema";
import { ensureAccount, setPassword, setPlan, signUp, verifyCredentials } from "./accounts";

describe("accounts", () => {
  it("signs up with a hashed password and verifies it", async () => {
    const db = await getDb();
    const account = await signUp(db, { email: " Ada@Example.TEST ", password: "correct horse battery" });
    expect(account).toMatchObject({ email: "ada@example.test", plan: "free", hasPassword: true });
    const [row] = await db.select().from(accounts);
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyCredentials(db, "ada@example.test", "correct horse battery")).toMatchObject({ id: account.id });
    expect(await verifyCredentials(db, "ADA@example.test", "correct horse battery")).toBeDefined();
    expect(await verifyCredentials(db, "ada@example.test", "wrong password!")).toBeUndefined();
    expect(await verifyCredentials(db, "nobody@example.test", "correct horse battery")).toBeUndefined();
  });

  it("refuses a taken email, a bad email and a short password with clear messages", async () => {
    const db = await getDb();
    await signUp(db, { email: "taken@example.test", password: "long enough pass" });
    await expect(signUp(db, { email: "TAKEN@example.test", password: "long enough pass" })).rejects.toThrow(/already exists/);
    await expect(signUp(db, { email: "not-an-email", password: "long enough pass" })).rejects.toMatchObject({
      code: "invalid_parameter",
      details: { parameter: "email" },
    });
    await expect(signUp(db, { email: "short@example.test", password: "short" })).rejects.toThrow(/at least 10/);
  });

  it("accounts created without a password cannot sign in until one is set", async () => {
    const db = await getDb();
    const { created } = await ensureAccount(db, "a@b.c");
    expect(created).toBe(true);
    expect((await ensureAccount(db, "A@B.C")).created).toBe(false);
    expect(await verifyCredentials(db, "a@b.c", "")).toBeUndefined();
    await setPassword(db, "a@b.c", "now it has one");
    expect(await verifyCredentials(db, "a@b.c", "now it has one")).toBeDefined();
    expect((await setPlan(db, "a@b.c", "pro")).plan).toBe("pro");
  });
});
