import "server-only";
import { hash as argon2Hash, verify as argon2Verify } from "@node-rs/argon2";
import { randomBytes } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db";
import { accounts, type AccountRow } from "@/lib/db/schema/accounts";
import { AppError, NotFoundError } from "@/lib/errors";
import { parseInput } from "@/lib/input";
import type { Plan } from "./plans";
import { invalidatePrincipals } from "./principal-cache";

export const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, "email must be at most 254 characters")
  // Deliberately lenient (one @, a dot in the domain): the address is an identity, not a mailbox check.
  .regex(/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/, "email must be a valid email address");

export const password = z
  .string()
  .min(10, "password must be at least 10 characters")
  .max(200, "password must be at most 200 characters");

export const accountPublic = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string().nullable(),
  plan: z.enum(["free", "pro", "enterprise"]),
  hasPassword: z.boolean(),
  operator: z.boolean(),
  createdAt: z.date(),
});
export type AccountPublic = z.infer<typeof accountPublic>;

export function toAccountPublic(row: AccountRow): AccountPublic {
  return accountPublic.parse({ ...row, hasPassword: row.passwordHash !== null });
}

export class EmailTakenError extends AppError {
  constructor() {
    super("invalid_parameter", "An account with this email already exists.", { parameter: "email" });
  }
}

// argon2id with OWASP's recommended minimum (19 MiB, 2 passes).
const argonOptions = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(plain: string): Promise<string> {
  return argon2Hash(plain, argonOptions);
}

export async function signUp(db: Db, input: { email: string; password: string; name?: string }): Promise<AccountPublic> {
  const address = parseInput(email, input.email, "email");
  const secret = parseInput(password, input.password, "password");
  const passwordHash = await hashPassword(secret);
  const [row] = await db
    .insert(accounts)
    .values({ email: address, passwordHash, name: input.name?.trim() || null })
    .onConflictDoNothing({ target: accounts.email })
    .returning();
  if (row === undefined) throw new EmailTakenError();
  return toAccountPublic(row);
}

// Verified against when the account does not exist, so a miss costs the same time as a hit.
let dummyHash: Promise<string> | undefined;

/** Checks an email and password; undefined on any mismatch, without saying which part was wrong. */
export async function verifyCredentials(db: Db, rawEmail: string, plain: string): Promise<AccountPublic | undefined> {
  const address = email.safeParse(rawEmail);
  if (!address.success || plain.length === 0 || plain.length > 200) return undefined;
  const [row] = await db.select().from(accounts).where(eq(accounts.email, address.data));
  if (row?.passwordHash == null) {
    dummyHash ??= hashPassword("not-a-real-password-but-a-timing-shield");
    await argon2Verify(await dummyHash, plain);
    return undefined;
  }
  return (await argon2Verify(row.passwordHash, plain)) ? toAccountPublic(row) : undefined;
}

export async function findAccountByEmail(db: Db, rawEmail: string): Promise<AccountPublic | undefined> {
  const address = parseInput(email, rawEmail, "email");
  const [row] = await db.select().from(accounts).where(eq(accounts.email, address));
  return row === undefined ? undefined : toAccountPublic(row);
}

export async function getAccountOrThrow(db: Db, accountId: string): Promise<AccountPublic> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  if (row === undefined) throw new NotFoundError("account", accountId);
  return toAccountPublic(row);
}

/** Creates the account when missing (without a password) and returns it either way. */
export async function ensureAccount(db: Db, rawEmail: string): Promise<{ account: AccountPublic; created: boolean }> {
  const address = parseInput(email, rawEmail, "email");
  const [inserted] = await db
    .insert(accounts)
    .values({ email: address })
    .onConflictDoNothing({ target: accounts.email })
    .returning();
  if (inserted !== undefined) return { account: toAccountPublic(inserted), created: true };
  const [row] = await db.select().from(accounts).where(eq(accounts.email, address));
  if (row === undefined) throw new Error("account vanished between insert and select");
  return { account: toAccountPublic(row), created: false };
}

export async function setPlan(db: Db, rawEmail: string, plan: Plan): Promise<AccountPublic> {
  const address = parseInput(email, rawEmail, "email");
  invalidatePrincipals();
  const [row] = await db
    .update(accounts)
    .set({ plan, updatedAt: new Date() })
    .where(eq(accounts.email, address))
    .returning();
  invalidatePrincipals();
  if (row === undefined) throw new NotFoundError("account", address);
  return toAccountPublic(row);
}

export async function setPassword(db: Db, rawEmail: string, plain: string): Promise<AccountPublic> {
  const address = parseInput(email, rawEmail, "email");
  const secret = parseInput(password, plain, "password");
  const passwordHash = await hashPassword(secret);
  const [row] = await db
    .update(accounts)
    .set({ passwordHash, updatedAt: new Date() })
    .where(eq(accounts.email, address))
    .returning();
  if (row === undefined) throw new NotFoundError("account", address);
  return toAccountPublic(row);
}

/** Grants or takes back the operator role (the dashboard's Accounts page). */
export async function setOperator(db: Db, rawEmail: string, operator: boolean): Promise<AccountPublic> {
  const address = parseInput(email, rawEmail, "email");
  const [row] = await db.update(accounts).set({ operator, updatedAt: new Date() }).where(eq(accounts.email, address)).returning();
  if (row === undefined) throw new NotFoundError("account", address);
  return toAccountPublic(row);
}

/** A password for the CLI to set and print: 128 random bits, base64url (22 characters). */
export function generatePassword(): string {
  return randomBytes(16).toString("base64url");
}

/** Every account, oldest first (the operator's Accounts page; bounded by `limit`). */
export async function listAccounts(db: Db, limit = 500): Promise<AccountPublic[]> {
  const rows = await db.select().from(accounts).orderBy(asc(accounts.createdAt), asc(accounts.id)).limit(limit);
  return rows.map(toAccountPublic);
}

/** Finds or links the account of a GitHub sign-in: by GitHub id first, then by verified email. */
export async function upsertGithubAccount(
  db: Db,
  profile: { githubId: string; email: string; name: string | null },
): Promise<AccountPublic> {
  const [byGithub] = await db.select().from(accounts).where(eq(accounts.githubId, profile.githubId));
  if (byGithub !== undefined) return toAccountPublic(byGithub);
  const address = parseInput(email, profile.email, "email");
  const [row] = await db
    .insert(accounts)
    .values({ email: address, githubId: profile.githubId, name: profile.name })
    .onConflictDoUpdate({ target: accounts.email, set: { githubId: profile.githubId, updatedAt: new Date() } })
    .returning();
  if (row === undefined) throw new Error("upsert into accounts returned no row");
  return toAccountPublic(row);
}
