import "client-only";

/**
 * next-auth v4's credentials sign-in and sign-out over its REST endpoints, without next-auth/react
 * (no SessionProvider, a smaller bundle). A fresh CSRF token is fetched for each attempt, and an
 * answer whose url carries `csrf=true` (the v4 CSRF-cookie race, docs/architecture.md, pitfall 7) is retried
 * once with a new token.
 */

async function csrfToken(): Promise<string> {
  const response = await fetch("/api/auth/csrf", { credentials: "same-origin", cache: "no-store" });
  const body = (await response.json()) as { csrfToken?: unknown };
  if (typeof body.csrfToken !== "string") throw new Error("The sign-in service did not answer.");
  return body.csrfToken;
}

async function postForm(path: string, fields: Record<string, string>): Promise<{ ok: boolean; url: string }> {
  const response = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1" },
    body: new URLSearchParams({ ...fields, csrfToken: await csrfToken(), json: "true" }),
  });
  const body = (await response.json().catch(() => ({}))) as { url?: unknown };
  return { ok: response.ok, url: typeof body.url === "string" ? body.url : "" };
}

export type SignInResult = { ok: true } | { ok: false; message: string };

export async function signInWithPassword(email: string, password: string, callbackUrl: string): Promise<SignInResult> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    let answer: { ok: boolean; url: string };
    try {
      answer = await postForm("/api/auth/callback/credentials", { email, password, callbackUrl });
    } catch {
      return { ok: false, message: "The server could not be reached. Try again." };
    }
    const url = new URL(answer.url || "/", window.location.origin);
    if (url.searchParams.get("csrf") === "true") continue;
    const error = url.searchParams.get("error");
    if (error === null && answer.ok) return { ok: true };
    if (error === "CredentialsSignin") return { ok: false, message: "Wrong email or password." };
    return { ok: false, message: "Sign-in failed. Try again." };
  }
  return { ok: false, message: "Sign-in failed (session check). Reload the page and try again." };
}

/** Starts an OAuth sign-in (GitHub): next-auth answers with the provider's authorize URL to go to. */
export async function signInWithProvider(provider: "github", callbackUrl: string): Promise<SignInResult> {
  try {
    const answer = await postForm(`/api/auth/signin/${provider}`, { callbackUrl });
    if (!answer.ok || answer.url === "") return { ok: false, message: "Sign-in with GitHub is not available right now." };
    window.location.assign(answer.url);
    return { ok: true };
  } catch {
    return { ok: false, message: "The server could not be reached. Try again." };
  }
}

export async function signOutSession(): Promise<void> {
  await postForm("/api/auth/signout", { callbackUrl: "/signin" });
}
