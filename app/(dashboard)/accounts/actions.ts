"use server";
import { revalidatePath } from "next/cache";
import type { CreateKeyState, RevokeKeyResult } from "@/lib/auth/key-actions";
import { createKeyAsOperator, revokeKeyAsOperator, setPasswordAsOperator, setPlanAsOperator, type OperatorResult } from "@/lib/auth/operator-actions";

// Server actions of the operator's Accounts page; each checks the operator again (lib/auth/operator-actions.ts).

export async function setPlanAction(accountId: string, plan: string): Promise<OperatorResult> {
  const result = await setPlanAsOperator(accountId, plan);
  if (result.ok) revalidatePath("/accounts");
  return result;
}

export async function createKeyAction(_previous: CreateKeyState, form: FormData): Promise<CreateKeyState> {
  const state = await createKeyAsOperator(form);
  if (state.status === "created") revalidatePath("/accounts");
  return state;
}

export async function revokeKeyAction(accountId: string, keyId: string): Promise<RevokeKeyResult> {
  const result = await revokeKeyAsOperator(accountId, keyId);
  if (result.ok) revalidatePath("/accounts");
  return result;
}

export async function setPasswordAction(_previous: OperatorResult | undefined, form: FormData): Promise<OperatorResult> {
  const result = await setPasswordAsOperator(form);
  if (result.ok) revalidatePath("/accounts");
  return result;
}
