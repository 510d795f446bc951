"use client";
import { useActionState, useRef, useState, useTransition } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { formatAge, formatDateTime, formatInteger } from "@/lib/format";
import type { CreateKeyState, RevokeKeyResult } from "@/lib/auth/key-actions";
import styles from "./settings.module.css";

export interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  usage: { total: number; errors: number; hourly: number[] };
}

export function ApiKeysPanel({
  keys,
  createAction,
  revokeAction,
}: {
  keys: KeyRow[];
  createAction: (state: CreateKeyState, form: FormData) => Promise<CreateKeyState>;
  revokeAction: (keyId: string) => Promise<RevokeKeyResult>;
}) {
  const [state, formAction, pending] = useActionState(createAction, { status: "idle" } as CreateKeyState);
  return (
    <section className="card stack" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <form action={formAction} className={styles.createForm}>
        <label>
          New key name
          <input name="name" type="text" required maxLength={100} placeholder="e.g. research notebook" />
        </label>
        <button type="submit" className="primary" disabled={pending}>
          {pending ? "Creating…" : "Create key"}
        </button>
      </form>
      <div aria-live="polite">
        {state.status === "error" && <p className="error">{state.message}</p>}
        {state.status === "created" && (
          <div className="notice stack" style={{ gap: "0.5rem" }} data-testid="new-key">
            <strong>Key “{state.name}” created. Copy it now: it is shown only once.</strong>
            <div className={styles.secret}>
              <code data-testid="new-key-value">{state.key}</code>
              <CopyButton value={state.key} label="Copy key" />
            </div>
          </div>
        )}
      </div>
      <KeyTable keys={keys} revokeAction={revokeAction} />
    </section>
  );
}

function Sparkline({ hourly }: { hourly: number[] }) {
  const max = Math.max(1, ...hourly);
  return (
    <div className={styles.spark} aria-hidden="true">
      {hourly.map((count, hour) => (
        <span key={hour} style={{ height: `${(count / max) * 100}%` }} />
      ))}
    </div>
  );
}

function KeyTable({ keys, revokeAction }: { keys: KeyRow[]; revokeAction: (keyId: string) => Promise<RevokeKeyResult> }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [target, setTarget] = useState<KeyRow | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [pending, startTransition] = useTransition();

  if (keys.length === 0) return <p className="muted">No keys yet. Create one to call the API from your own code.</p>;
  return (
    <div className={styles.tableWrap}>
      {error !== undefined && <p className="error">{error}</p>}
      <table className="data" data-testid="keys-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col" className="num">
              Requests (24h)
            </th>
            <th scope="col">Per hour</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id} data-key-prefix={key.prefix}>
              <td>{key.name}</td>
              <td>
                <code>{key.prefix}…</code>
              </td>
              <td className="nowrap">{formatDateTime(key.createdAt)}</td>
              {/* Ages move between the server render and hydration: the text may differ by a second. */}
              <td className="nowrap" suppressHydrationWarning>
                {key.lastUsedAt === null ? "never" : formatAge(key.lastUsedAt)}
              </td>
              <td className="num mono" data-testid="key-requests">
                {formatInteger(key.usage.total)}
                {key.usage.errors > 0 && <span className="down small"> ({formatInteger(key.usage.errors)} errors)</span>}
              </td>
              <td>
                <Sparkline hourly={key.usage.hourly} />
              </td>
              <td>
                {key.revokedAt !== null ? (
                  <span className="badge" suppressHydrationWarning>
                    revoked {formatAge(key.revokedAt)}
                  </span>
                ) : (
                  <button
                    type="button"
                    onClick={() => {
                      setTarget(key);
                      setError(undefined);
                      dialog.current?.showModal();
                    }}
                  >
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <dialog ref={dialog} aria-labelledby="revoke-title" onClose={() => setTarget(undefined)}>
        <h2 id="revoke-title">Revoke “{target?.name}”?</h2>
        <p>
          Requests with <code>{target?.prefix}…</code> will be refused at once. This cannot be undone.
        </p>
        <div className="row" style={{ justifyContent: "flex-end" }}>
          <button type="button" onClick={() => dialog.current?.close()} autoFocus>
            Cancel
          </button>
          <button
            type="button"
            className="danger"
            disabled={pending}
            onClick={() => {
              if (target === undefined) return;
              startTransition(async () => {
                const result = await revokeAction(target.id);
                if (!result.ok) setError(result.message);
                dialog.current?.close();
              });
            }}
          >
            {pending ? "Revoking…" : "Revoke key"}
          </button>
        </div>
      </dialog>
    </div>
  );
}
