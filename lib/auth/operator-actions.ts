import "server-only";
import { notFound } from "next/navigation";
import { z } from "zod";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";
import { getAccountOrThrow, listAccounts, setPassword, setPlan, type AccountPublic } from "./accounts";
import { createApiKey, listKeysOfAccounts, revokeApiKey, type ApiKeyPublic } from "./api-keys";
import type { CreateKeyState, RevokeKeyResult } from "./key-actions";
import { requireAccount, getSessionAccount } from "./page-session";
import { isPlan } from "./plans";

/**
 * The operator's Accounts page (docs/dashboard.md, "Accounts"): every account's plan, keys and
 * password, from the dashboard, while the server runs. Only an operator (accounts.operator, granted
 * by the admin CLI) reaches it: the page answers 404 to anyone else, as if it did not exist, and
 * every action checks the operator again on the server, from the database, on each call.
 */

export type OperatorResult = { ok: true; message: string } | { ok: false; message: string };

/** The page's guard: the signed-in operator, a sign-in redirect, or a 404 for everyone else. */
export async function requireOperator(returnTo: string): Promise<AccountPublic> {
  const account = await requireAccount(returnTo);
  if (!account.operator) notFound();
  return account;
}

export interface AccountWithKeys extends AccountPublic {
  keys: ApiKeyPublic[];
}

/** Every account with its keys, oldest account first, newest key first. */
export async function accountsForOperator(): Promise<AccountWithKeys[]> {
  const db = await getDb();
  const accounts = await listAccounts(db);
  const keys = await listKeysOfAccounts(db, accounts.map((account) => account.id));
  return accounts.map((account) => ({ ...account, keys: keys.get(account.id) ?? [] }));
}

const notAllowed = "Only an operator can do this: sign in again as one.";

/** Runs `action` for a signed-in operator, mapping domain errors to their message. */
async function asOperator<T extends { ok: boolean } | { status: string }>(action: () => Promise<T>, failed: (message: string) => T, what: string): Promise<T> {
  const operator = await getSessionAccount();
  if (operator?.operator !== true) return failed(notAllowed);
  try {
    return await action();
  } catch (error) {
    if (error instanceof AppError) return failed(error.message);
    log.error(`operator: ${what} failed`, errorFields(error));
    return failed(`The ${what} did not complete. Try again.`);
  }
}

const accountId = z.uuid();

async function targetAccount(id: unknown): Promise<AccountPublic> {
  const parsed = accountId.safeParse(id);
  if (!parsed.success) throw new AppError("not_found", "No such account.");
  return getAccountOrThrow(await getDb(), parsed.data);
}

/** Sets another account's plan (takes effect on its next request: the principal cache is cleared). */
export function setPlanAsOperator(id: string, plan: string): Promise<OperatorResult> {
  return asOperator<OperatorResult>(
    async () => {
      if (!isPlan(plan)) throw new AppError("invalid_parameter", "The plan must be free, pro or enterprise.");
      const account = await setPlan(await getDb(), (await targetAccount(id)).email, plan);
      return { ok: true, message: `${account.email} is now on the ${account.plan} plan.` };
    },
    (message) => ({ ok: false, message }),
    "plan change",
  );
}

/** Creates a key for any account; the full key is returned this once. */
export function createKeyAsOperator(form: FormData): Promise<CreateKeyState> {
  return asOperator<CreateKeyState>(
    async () => {
      const account = await targetAccount(form.get("accountId"));
      const created = await createApiKey(await getDb(), account.id, String(form.get("name") ?? ""));
      return { status: "created", name: created.name, prefix: created.prefix, key: created.key };
    },
    (message) => ({ status: "error", message: message.replace(/^name /, "The name ") }),
    "key creation",
  );
}

/** Revokes a key of any account. */
export function revokeKeyAsOperator(id: string, keyId: string): Promise<RevokeKeyResult> {
  return asOperator<RevokeKeyResult>(
    async () => {
      await revokeApiKey(await getDb(), (await targetAccount(id)).id, keyId);
      return { ok: true };
    },
    (message) => ({ ok: false, message }),
    "key revocation",
  );
}

/** Sets any account's password (an account the CLI made can then sign in). */
export function setPasswordAsOperator(form: FormData): Promise<OperatorResult> {
  return asOperator<OperatorResult>(
    async () => {
      const account = await setPassword(await getDb(), (await targetAccount(form.get("accountId"))).email, String(form.get("password") ?? ""));
      return { ok: true, message: `Password set for ${account.email}: it can sign in now.` };
    },
    (message) => ({ ok: false, message: message.replace(/^password /, "The password ") }),
    "password change",
  );
}
