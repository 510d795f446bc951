"use client";
import Link from "next/link";
import { useActionState, useEffect, useState } from "react";
import { signInWithPassword } from "@/lib/browser/auth-client";
import type { SignUpState } from "@/lib/auth/sign-up";
import styles from "./auth-form.module.css";

/**
 * Creates the account with a server action, then signs in through next-auth with the same
 * credentials, so the session cookie is next-auth's own.
 */
export function SignUpForm({
  action,
  callbackUrl,
}: {
  action: (state: SignUpState, form: FormData) => Promise<SignUpState>;
  callbackUrl: string;
}) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" } as SignUpState);
  const [signInError, setSignInError] = useState<string | undefined>(undefined);

  useEffect(() => {
    if (state.status !== "created") return;
    let cancelled = false;
    void signInWithPassword(state.email, state.password, callbackUrl).then((result) => {
      if (cancelled) return;
      if (result.ok) window.location.assign(callbackUrl);
      else setSignInError(`Your account was created, but signing in failed: ${result.message}`);
    });
    return () => {
      cancelled = true;
    };
  }, [state, callbackUrl]);

  const fieldError = (name: string) => (state.status === "error" && state.field === name ? state.message : undefined);
  const formError = state.status === "error" && state.field === undefined ? state.message : signInError;
  const busy = pending || (state.status === "created" && signInError === undefined);

  return (
    <div className={`card ${styles.wrap}`}>
      <h1>Create your account</h1>
      <form className={styles.form} action={formAction} noValidate>
        <label>
          Name <span className={styles.hint}>(optional)</span>
          <input name="name" type="text" autoComplete="name" defaultValue={state.status === "error" ? state.values.name : ""} />
        </label>
        <label>
          Email
          <input
            name="email"
            type="email"
            autoComplete="email"
            required
            aria-invalid={fieldError("email") !== undefined}
            aria-describedby="email-error"
            defaultValue={state.status === "error" ? state.values.email : ""}
          />
          <span id="email-error" className="down small">
            {fieldError("email")}
          </span>
        </label>
        <label>
          Password <span className={styles.hint}>(at least 10 characters)</span>
          <input
            name="password"
            type="password"
            autoComplete="new-password"
            required
            minLength={10}
            aria-invalid={fieldError("password") !== undefined}
            aria-describedby="password-error"
          />
          <span id="password-error" className="down small">
            {fieldError("password")}
          </span>
        </label>
        <div role="alert" aria-live="polite">
          {formError !== undefined && <p className="error">{formError}</p>}
        </div>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? "Creating account…" : "Sign up"}
        </button>
      </form>
      <p className={styles.alt}>
        Already have an account? <Link href={`/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`}>Sign in</Link>
      </p>
    </div>
  );
}
