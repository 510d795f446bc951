import "server-only";
import { signUp } from "./accounts";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";

/** What the sign-up server action answers the form (plain data: it crosses the server/client boundary). */
export type SignUpState =
  | { status: "idle" }
  | { status: "error"; field: "email" | "password" | undefined; message: string; values: { email: string; name: string } }
  | { status: "created"; email: string; password: string };

/**
 * The sign-up form's work: create the account, or say which field is wrong. On success the
 * password goes back to the same browser that just sent it, once, so the form can sign in with it.
 */
export async function signUpFromForm(form: FormData): Promise<SignUpState> {
  const email = String(form.get("email") ?? "");
  const password = String(form.get("password") ?? "");
  const name = String(form.get("name") ?? "");
  const values = { email, name };
  try {
    const account = await signUp(await getDb(), { email, password, name });
    return { status: "created", email: account.email, password };
  } catch (error) {
    if (error instanceof AppError && error.code === "invalid_parameter") {
      const parameter = (error.details as { parameter?: unknown } | undefined)?.parameter;
      const field = parameter === "email" || parameter === "password" ? parameter : undefined;
      return { status: "error", field, message: error.message, values };
    }
    log.error("sign-up failed", errorFields(error));
    return { status: "error", field: undefined, message: "Sign-up failed on our side. Try again in a moment.", values };
  }
}
