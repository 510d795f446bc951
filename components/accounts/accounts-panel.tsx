"use client";
import { useActionState, useState, useTransition } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { formatAge, formatDateTime } from "@/lib/format";
import type { CreateKeyState, RevokeKeyResult } from "@/lib/auth/key-actions";
import type { OperatorResult } from "@/lib/auth/operator-actions";
import styles from "@/components/settings/settings.module.css";

export interface OperatorKeyRow {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface OperatorAccountRow {
  id: string;
  email: string;
  plan: string;
  operator: boolean;
  hasPassword: boolean;
  createdAt: string;
  keys: OperatorKeyRow[];
}

export interface OperatorActions {
  setPlan: (accountId: string, plan: string) => Promise<OperatorResult>;
  createKey: (state: CreateKeyState, form: FormData) => Promise<CreateKeyState>;
  revokeKey: (accountId: string, keyId: string) => Promise<RevokeKeyResult>;
  setPassword: (state: OperatorResult | undefined, form: FormData) => Promise<OperatorResult>;
}

const plans = ["free", "pro", "enterprise"] as const;

/** The operator's Accounts page: one card per account. */
export function AccountsPanel({ accounts, actions }: { accounts: OperatorAccountRow[]; actions: OperatorActions }) {
  if (accounts.length === 0) return <p className="muted">No accounts yet.</p>;
  return (
    <div className="stack">
      {accounts.map((account) => (
        <AccountCard key={account.id} account={account} actions={actions} />
      ))}
    </div>
  );
}

function AccountCard({ account, actions }: { account: OperatorAccountRow; actions: OperatorActions }) {
  const [plan, setPlan] = useState(account.plan);
  const [planResult, setPlanResult] = useState<OperatorResult | undefined>(undefined);
  const [saving, startSaving] = useTransition();
  const [keyState, createKey, creating] = useActionState(actions.createKey, { status: "idle" } as CreateKeyState);
  const [passwordState, setPassword, settingPassword] = useActionState(actions.setPassword, undefined);
  const titleId = `account-${account.id}`;
  return (
    <section className="card stack" aria-labelledby={titleId} data-testid="account" data-email={account.email}>
      <h2 id={titleId} style={{ margin: 0 }}>
        {account.email} {account.operator && <span className="badge">operator</span>}
      </h2>
      <p className="muted small" style={{ margin: 0 }}>
        Since {formatDateTime(account.createdAt)} · {account.hasPassword ? "has a password" : "no password: cannot sign in to the dashboard until one is set"}
      </p>
      <div className="row" style={{ gap: "1.5rem", alignItems: "flex-end", flexWrap: "wrap" }}>
        <form
          className="row"
          style={{ gap: "0.5rem", alignItems: "flex-end" }}
          onSubmit={(event) => {
            event.preventDefault();
            startSaving(async () => setPlanResult(await actions.setPlan(account.id, plan)));
          }}
        >
          <label>
            Plan
            <select name="plan" value={plan} onChange={(event) => setPlan(event.target.value)}>
              {plans.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={saving || plan === account.plan}>
            {saving ? "Saving…" : "Change plan"}
          </button>
        </form>
        <form action={setPassword} className="row" style={{ gap: "0.5rem", alignItems: "flex-end" }}>
          <input type="hidden" name="accountId" value={account.id} />
          <label>
            New password
            <input name="password" type="password" autoComplete="new-password" minLength={10} maxLength={200} required placeholder="10 characters or more" />
          </label>
          <button type="submit" disabled={settingPassword}>
            {settingPassword ? "Setting…" : "Set password"}
          </button>
        </form>
        <form action={createKey} className="row" style={{ gap: "0.5rem", alignItems: "flex-end" }}>
          <input type="hidden" name="accountId" value={account.id} />
          <label>
            New key name
            <input name="name" type="text" required maxLength={100} placeholder="e.g. research notebook" />
          </label>
          <button type="submit" className="primary" disabled={creating}>
            {creating ? "Creating…" : "Create key"}
          </button>
        </form>
      </div>
      <div aria-live="polite">
        {planResult !== undefined && <p className={planResult.ok ? "notice" : "error"}>{planResult.message}</p>}
        {passwordState !== undefined && <p className={passwordState.ok ? "notice" : "error"}>{passwordState.message}</p>}
        {keyState.status === "error" && <p className="error">{keyState.message}</p>}
        {keyState.status === "created" && (
          <div className="notice stack" style={{ gap: "0.5rem" }} data-testid="new-key">
            <strong>
              Key “{keyState.name}” created for {account.email}. Copy it now: it is shown only once.
            </strong>
            <div className={styles.secret}>
              <code data-testid="new-key-value">{keyState.key}</code>
              <CopyButton value={keyState.key} label="Copy key" />
            </div>
          </div>
        )}
      </div>
      <KeyList accountId={account.id} keys={account.keys} revokeKey={actions.revokeKey} />
    </section>
  );
}

function KeyList({ accountId, keys, revokeKey }: { accountId: string; keys: OperatorKeyRow[]; revokeKey: OperatorActions["revokeKey"] }) {
  const [error, setError] = useState<string | undefined>(undefined);
  const [pending, startTransition] = useTransition();
  if (keys.length === 0) return <p className="muted small">No keys.</p>;
  return (
    <div className={styles.tableWrap}>
      {error !== undefined && <p className="error">{error}</p>}
      <table className="data">
        <thead>
          <tr>
            <th>Name</th>
            <th>Key</th>
            <th>Created</th>
            <th>Last used</th>
            <th>Status</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id}>
              <td>{key.name}</td>
              <td>
                <code>{key.prefix}…</code>
              </td>
              <td>{formatDateTime(key.createdAt)}</td>
              <td>{key.lastUsedAt === null ? "never" : formatAge(key.lastUsedAt)}</td>
              <td>{key.revokedAt === null ? "active" : `revoked ${formatDateTime(key.revokedAt)}`}</td>
              <td>
                {key.revokedAt === null && (
                  <button
                    type="button"
                    className="danger"
                    disabled={pending}
                    onClick={() =>
                      startTransition(async () => {
                        const result = await revokeKey(accountId, key.id);
                        setError(result.ok ? undefined : result.message);
                      })
                    }
                  >
                    Revoke {key.name}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
