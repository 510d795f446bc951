import "server-only";
import { getServerSession } from "next-auth/next";
import { redirect } from "next/navigation";
import { getDb } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import { getAccountOrThrow, type AccountPublic } from "./accounts";
import { authOptions } from "./next-auth";

// The session of a page or server action (next-auth's getServerSession, next/navigation's redirect).
// The API surface reads the same session from the request's cookies in ./session.ts: next/navigation
// only loads inside Next, and the node:http front (server.mjs), scripts and tests run the API code
// outside it.

/**
 * The signed-in account of the current request, read fresh from the database (a plan change or a
 * deleted account shows on the next page load), or undefined when nobody is signed in.
 */
export async function getSessionAccount(): Promise<AccountPublic | undefined> {
  const session = await getServerSession(authOptions());
  const accountId = (session as { accountId?: unknown } | null)?.accountId;
  if (typeof accountId !== "string") return undefined;
  try {
    return await getAccountOrThrow(await getDb(), accountId);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/** The signed-in account, or a redirect to the sign-in page that comes back to `returnTo`. */
export async function requireAccount(returnTo: string): Promise<AccountPublic> {
  const account = await getSessionAccount();
  if (account === undefined) redirect(`/signin?callbackUrl=${encodeURIComponent(returnTo)}`);
  return account;
}
