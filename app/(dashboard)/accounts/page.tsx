import type { Metadata } from "next";
import { AccountsPanel } from "@/components/accounts/accounts-panel";
import { accountsForOperator, requireOperator } from "@/lib/auth/operator-actions";
import { createKeyAction, revokeKeyAction, setPasswordAction, setPlanAction } from "./actions";

export const metadata: Metadata = { title: "Accounts" };

// Accounts (operators only; 404 for everyone else): every account's plan, keys and password.
export default async function AccountsPage() {
  const operator = await requireOperator("/accounts");
  const accounts = await accountsForOperator();
  return (
    <div className="stack">
      <h1>Accounts</h1>
      <p className="muted">
        Every account of this service: change a plan, create or revoke a key, set a password. Changes take effect on the account&apos;s next request. You are
        signed in as the operator {operator.email}; the admin CLI grants the role (<code>npm run --silent admin -- operator --email …</code>).
      </p>
      <AccountsPanel
        accounts={accounts.map((account) => ({
          id: account.id,
          email: account.email,
          plan: account.plan,
          operator: account.operator,
          hasPassword: account.hasPassword,
          createdAt: account.createdAt.toISOString(),
          keys: account.keys.map((key) => ({
            id: key.id,
            name: key.name,
            prefix: key.prefix,
            createdAt: key.createdAt.toISOString(),
            lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
            revokedAt: key.revokedAt?.toISOString() ?? null,
          })),
        }))}
        actions={{ setPlan: setPlanAction, createKey: createKeyAction, revokeKey: revokeKeyAction, setPassword: setPasswordAction }}
      />
    </div>
  );
}
