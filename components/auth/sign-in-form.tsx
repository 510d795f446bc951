"use client";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { signInWithPassword, signInWithProvider } from "@/lib/browser/auth-client";
import styles from "./auth-form.module.css";

export function SignInForm({ callbackUrl, notice, github }: { callbackUrl: string; notice?: string; github: boolean }) {
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(undefined);
    const result = await signInWithPassword(String(form.get("email") ?? ""), String(form.get("password") ?? ""), callbackUrl);
    if (result.ok) {
      window.location.assign(callbackUrl);
      return;
    }
    setError(result.message);
    setBusy(false);
  }

  async function signInWithGithub() {
    setBusy(true);
    setError(undefined);
    const result = await signInWithProvider("github", callbackUrl);
    if (!result.ok) {
      setError(result.message);
      setBusy(false);
    }
  }

  return (
    <div className={`card ${styles.wrap}`}>
      <h1>Sign in</h1>
      {notice !== undefined && <p className="notice">{notice}</p>}
      <form className={styles.form} onSubmit={submit} noValidate>
        <label>
          Email
          <input name="email" type="email" autoComplete="email" required autoFocus />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <div role="alert" aria-live="polite">
          {error !== undefined && <p className="error">{error}</p>}
        </div>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
      {github && (
        <button type="button" onClick={signInWithGithub} disabled={busy}>
          Sign in with GitHub
        </button>
      )}
      <p className={styles.alt}>
        No account yet? <Link href={`/signup?callbackUrl=${encodeURIComponent(callbackUrl)}`}>Sign up</Link>
      </p>
      <p className={styles.alt}>
        <Link href="/signin/help">Your account was made for you, or you have no password?</Link>
      </p>
    </div>
  );
}
