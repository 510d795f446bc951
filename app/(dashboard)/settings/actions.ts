"use server";
import { revalidatePath } from "next/cache";
import { createKeyFromForm, revokeKeyForSession, type CreateKeyState, type RevokeKeyResult } from "@/lib/auth/key-actions";

// Server action: create an API key (shown once in the answer).
export async function createKeyAction(_previous: CreateKeyState, form: FormData): Promise<CreateKeyState> {
  const state = await createKeyFromForm(form);
  if (state.status === "created") revalidatePath("/settings");
  return state;
}

// Server action: revoke an API key of the signed-in account.
export async function revokeKeyAction(keyId: string): Promise<RevokeKeyResult> {
  const result = await revokeKeyForSession(keyId);
  if (result.ok) revalidatePath("/settings");
  return result;
}
