import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import GitHubProvider from "next-auth/providers/github";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db";
import { upsertGithubAccount, verifyCredentials } from "./accounts";
import { getAuthSecret } from "./secret";

let cached: NextAuthOptions | undefined;

/**
 * next-auth configuration: email + password (argon2) always, GitHub when GITHUB_ID/GITHUB_SECRET
 * are set. Sessions are JWT cookies whose subject is the account id; the plan is read from the
 * database on every request, so a plan change or a deleted account takes effect at once.
 * Built on first use, so a build never touches the secret or the stores.
 */
export function authOptions(): NextAuthOptions {
  if (cached !== undefined) return cached;
  const providers: NextAuthOptions["providers"] = [
    CredentialsProvider({
      id: "credentials",
      name: "Email and password",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
      },
      async authorize(credentials) {
        if (credentials === undefined) return null;
        const account = await verifyCredentials(await getDb(), credentials.email, credentials.password);
        return account === undefined ? null : { id: account.id, email: account.email, name: account.name };
      },
    }),
  ];
  if (config.auth.github !== undefined) {
    providers.push(GitHubProvider({ clientId: config.auth.github.id, clientSecret: config.auth.github.secret }));
  }
  cached = {
    secret: getAuthSecret(),
    session: { strategy: "jwt", maxAge: 30 * 24 * 60 * 60 },
    pages: { signIn: "/signin" },
    providers,
    callbacks: {
      async signIn({ account, profile, user }) {
        if (account?.provider !== "github") return true;
        const email = user.email ?? profile?.email;
        // Only link a GitHub identity that comes with an email address.
        return typeof email === "string" && email !== "";
      },
      async jwt({ token, account, user, profile }) {
        if (account?.provider === "github") {
          const linked = await upsertGithubAccount(await getDb(), {
            githubId: String(account.providerAccountId),
            email: user.email ?? profile?.email ?? "",
            name: user.name ?? null,
          });
          token.sub = linked.id;
          token.email = linked.email;
        } else if (user !== undefined) {
          token.sub = user.id;
        }
        return token;
      },
      async session({ session, token }) {
        return { ...session, accountId: token.sub };
      },
    },
  };
  return cached;
}
