import "server-only";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";
import { createApiKey, revokeApiKey } from "./api-keys";
import { getSessionAccount } from "./page-session";

export type CreateKeyState =
  | { status: "idle" }
  | { status: "error"; message: string }
  | { status: "created"; name: string; prefix: string; key: string };

export type RevokeKeyResult = { ok: true } | { ok: false; message: string };

const signedOut = "Your session has ended: sign in again.";

/** Creates a key for the signed-in account; the full key is returned this once. */
export async function createKeyFromForm(form: FormData): Promise<CreateKeyState> {
  const account = await getSessionAccount();
  if (account === undefined) return { status: "error", message: signedOut };
  try {
    const created = await createApiKey(await getDb(), account.id, String(form.get("name") ?? ""));
    return { status: "created", name: created.name, prefix: created.prefix, key: created.key };
  } catch (error) {
    if (error instanceof AppError) return { status: "error", message: error.message.replace(/^name /, "The name ") };
    log.error("key creation failed", errorFields(error));
    return { status: "error", message: "The key could not be created. Try again." };
  }
}

/** Revokes one of the signed-in account's keys; another account's key id is "not found". */
export async function revokeKeyForSession(keyId: string): Promise<RevokeKeyResult> {
  const account = await getSessionAccount();
  if (account === undefined) return { ok: false, message: signedOut };
  try {
    await revokeApiKey(await getDb(), account.id, keyId);
    return { ok: true };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, message: error.message };
    log.error("key revocation failed", errorFields(error));
    return { ok: false, message: "The key could not be revoked. Try again." };
  }
}
