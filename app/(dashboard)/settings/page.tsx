import type { Metadata } from "next";
import { ApiKeysPanel } from "@/components/settings/api-keys-panel";
import { rateLimitFor } from "@/lib/auth/plans";
import { getDb } from "@/lib/db";
import { formatDateTime, formatInteger } from "@/lib/dashboard/format";
import { listKeysWithUsage } from "@/lib/dashboard/keys";
import { requireAccount } from "@/lib/dashboard/session";
import { createKeyAction, revokeKeyAction } from "./actions";

export const metadata: Metadata = { title: "Settings" };

const planFeatures: Record<string, string> = {
  free: "Catalog and pass-through.",
  pro: "Catalog and pass-through, higher rate limit.",
  enterprise: "Catalog, pass-through and order-book history in SQL (POST /v0/sql).",
};

// Settings: plan, API keys (create, list, revoke) and requests per key over 24 hours.
export default async function SettingsPage() {
  const account = await requireAccount("/settings");
  const keys = await listKeysWithUsage(await getDb(), account.id);
  return (
    <div className="stack">
      <h1>Settings</h1>
      <section className="card" aria-labelledby="plan-title">
        <h2 id="plan-title">Account and plan</h2>
        <dl className="row" style={{ gap: "0.5rem 2rem", margin: 0 }}>
          <div>
            <dt className="muted small">Email</dt>
            <dd style={{ margin: 0 }}>{account.email}</dd>
          </div>
          <div>
            <dt className="muted small">Plan</dt>
            <dd style={{ margin: 0 }} data-testid="plan">
              <strong>{account.plan}</strong> · {planFeatures[account.plan]}
            </dd>
          </div>
          <div>
            <dt className="muted small">Rate limit</dt>
            <dd style={{ margin: 0 }}>{formatInteger(rateLimitFor(account.plan))} requests/minute per key</dd>
          </div>
          <div>
            <dt className="muted small">Member since</dt>
            <dd style={{ margin: 0 }}>{formatDateTime(account.createdAt)}</dd>
          </div>
        </dl>
      </section>
      <ApiKeysPanel
        keys={keys.map((key) => ({
          id: key.id,
          name: key.name,
          prefix: key.prefix,
          createdAt: key.createdAt.toISOString(),
          lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
          revokedAt: key.revokedAt?.toISOString() ?? null,
          usage: key.usage,
        }))}
        createAction={createKeyAction}
        revokeAction={revokeKeyAction}
      />
    </div>
  );
}
