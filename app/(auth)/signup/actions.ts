"use server";
import { signUpFromForm } from "@/lib/dashboard/sign-up";
import type { SignUpState } from "@/lib/dashboard/sign-up-state";

// Server action of the sign-up form.
export async function signUpAction(_previous: SignUpState, form: FormData): Promise<SignUpState> {
  return signUpFromForm(form);
}
