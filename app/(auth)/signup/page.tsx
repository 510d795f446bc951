import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { safeCallback } from "@/lib/auth/callback";
import { SignUpForm } from "@/components/auth/sign-up-form";
import { getSessionAccount } from "@/lib/auth/page-session";
import { signUpAction } from "./actions";

export const metadata: Metadata = { title: "Sign up" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const callbackUrl = safeCallback((await searchParams).callbackUrl);
  if ((await getSessionAccount()) !== undefined) redirect(callbackUrl);
  return <SignUpForm action={signUpAction} callbackUrl={callbackUrl} />;
}
