import type { Metadata } from "next";
import { ApiKeysPanel } from "@/components/settings/api-keys-panel";
import { ErrorsPanel } from "@/components/settings/errors-panel";
import { UsageChart } from "@/components/settings/usage-chart";
import { rateLimitFor } from "@/lib/auth/plans";
import { getDb } from "@/lib/db";
import { formatDateTime, formatInteger } from "@/lib/format";
import { accountErrors, listKeysWithUsage, USAGE_WINDOW_HOURS } from "@/lib/auth/usage";
import { requireAccount } from "@/lib/auth/page-session";
import { StreamUsagePanel } from "@/components/streams/stream-usage-panel";
import { streamLimits, streamUsagePerKey } from "@/lib/streams/usage";
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
  const db = await getDb();
  const now = new Date();
  const [keys, errors] = await Promise.all([listKeysWithUsage(db, account.id, now), accountErrors(db, account.id, now)]);
  const windowStart = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000 - (USAGE_WINDOW_HOURS - 1) * 3_600_000);
  const keyName = new Map(keys.map((key) => [key.id, `${key.name} (${key.prefix}…)`]));
  const streams = await streamUsagePerKey(db, account.id, 24, now);
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
      <section className="card" aria-labelledby="usage-title">
        <h2 id="usage-title">Requests per hour, by key</h2>
        <UsageChart series={keys.map((key) => ({ name: key.name, hourly: key.usage.hourly }))} windowStart={windowStart.toISOString()} />
      </section>
      <StreamUsagePanel
        rows={[...streams].map(([keyId, use]) => ({ keyId, keyName: keyName.get(keyId) ?? "deleted key", ...use }))}
        {...streamLimits(account.plan)}
      />
      <ErrorsPanel
        errors={{
          ...errors,
          recent: errors.recent.map((row) => ({ ...row, keyName: row.keyId === null ? "session" : (keyName.get(row.keyId) ?? "deleted key") })),
        }}
      />
    </div>
  );
}
