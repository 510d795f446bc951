"use server";
import { signUpFromForm } from "@/lib/auth/sign-up";
import type { SignUpState } from "@/lib/auth/sign-up";

// Server action of the sign-up form.
export async function signUpAction(_previous: SignUpState, form: FormData): Promise<SignUpState> {
  return signUpFromForm(form);
}
