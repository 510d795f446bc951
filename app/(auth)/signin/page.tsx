import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { config } from "@/lib/config";
import { safeCallback } from "@/lib/auth/callback";
import { getSessionAccount } from "@/lib/auth/page-session";

export const metadata: Metadata = { title: "Sign in" };

const errorNotices: Record<string, string> = {
  CredentialsSignin: "Wrong email or password.",
  OAuthSignin: "Could not start the GitHub sign-in. Try again.",
  OAuthCallback: "GitHub sign-in did not complete. Try again.",
  AccessDenied: "GitHub sign-in needs an account with an email address.",
  SessionRequired: "Sign in to see this page.",
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; error?: string }> }) {
  const params = await searchParams;
  const callbackUrl = safeCallback(params.callbackUrl);
  if ((await getSessionAccount()) !== undefined) redirect(callbackUrl);
  const notice = params.error === undefined ? undefined : (errorNotices[params.error] ?? "Sign-in failed. Try again.");
  return <SignInForm callbackUrl={callbackUrl} notice={notice} github={config.auth.github !== undefined} />;
}
