"use client";
import { useActionState, useCallback, useEffect, useState, useTransition, type ReactNode } from "react";
import type { QueueItem } from "@/lib/matching/reviews";

type Result = { ok: true; message: string } | { ok: false; message: string };

interface Actions {
  review: (pair: string, verdict: string, reason: string) => Promise<Result>;
  importReviews: (previous: Result | undefined, form: FormData) => Promise<Result>;
}

/** One keystroke, one review: the verdict and the reason it records. */
const keys: Record<string, { verdict: "confirmed" | "rejected"; reason: string }> = {
  y: { verdict: "confirmed", reason: "same contract: both rules settle alike" },
  "1": { verdict: "rejected", reason: "rules differ: they can settle differently" },
  "2": { verdict: "rejected", reason: "another question" },
  "3": { verdict: "rejected", reason: "another date or number" },
};

interface Diff {
  attribute: string;
  state: string;
  label?: string;
  a: string[];
  b: string[];
}

/** The rules text with the words a difference names marked. */
function marked(text: string | null, words: string[]): ReactNode {
  if (text === null || text.trim() === "") return <span className="muted">No rules text.</span>;
  const wanted = words.map((w) => w.trim()).filter((w) => w.length > 2 && w.length < 200);
  if (wanted.length === 0) return text;
  const escaped = wanted.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/^…|…$/g, ""));
  const re = new RegExp(`(${escaped.join("|")})`, "gi");
  return text.split(re).map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : <span key={i}>{part}</span>));
}

export function ReviewQueue({ items, actions }: { items: QueueItem[]; actions: Actions }) {
  const [at, setAt] = useState(0);
  const [done, setDone] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<Result | null>(null);
  const [pending, start] = useTransition();
  const [imported, importAction, importing] = useActionState(actions.importReviews, undefined);
  const open = items.filter((i) => done[i.pair] === undefined);
  const item = open[Math.min(at, Math.max(0, open.length - 1))];

  const act = useCallback(
    (key: string) => {
      const choice = keys[key];
      if (item === undefined || choice === undefined || pending) return;
      start(async () => {
        const result = await actions.review(item.pair, choice.verdict, choice.reason);
        setMessage(result);
        if (result.ok) setDone((d) => ({ ...d, [item.pair]: choice.verdict }));
      });
    },
    [actions, item, pending],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target !== null && ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) return;
      if (e.metaKey || e.ctrlKey || e.altKey) return;
      if (e.key === "j") setAt((v) => Math.min(v + 1, Math.max(0, open.length - 1)));
      else if (e.key === "k") setAt((v) => Math.max(0, v - 1));
      else if (keys[e.key] !== undefined) {
        e.preventDefault();
        act(e.key);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [act, open.length]);

  const diffs = (item?.differences ?? []) as Diff[];
  return (
    <div className="stack" data-testid="review-queue">
      <p data-testid="review-count">
        {open.length} pair{open.length === 1 ? "" : "s"} waiting{Object.keys(done).length > 0 ? `; ${Object.keys(done).length} reviewed here` : ""}.
      </p>
      {message !== null && (
        <p role="status" className={message.ok ? "muted" : "error"} data-testid="review-message">
          {message.message}
        </p>
      )}
      {item === undefined ? (
        <p className="muted">Nothing waits for a review.</p>
      ) : (
        <section className="card stack" data-testid="review-item" data-pair={item.pair}>
          <p>
            <strong>{item.why === "proposed" ? `Proposed rejection (${item.proposed?.source ?? ""}): ${item.proposed?.reason ?? ""}` : item.why === "unreviewed identity" ? "Identity not yet reviewed" : "Uncertain"}</strong>{" "}
            · engine says <code>{item.relation}</code>
            {item.confidence !== null ? ` at ${(item.confidence * 100).toFixed(0)}%` : ""}
          </p>
          <p className="muted">{item.reasoning}</p>
          {diffs.length > 0 && (
            <table data-testid="review-differences">
              <thead>
                <tr>
                  <th>Differs</th>
                  <th>{item.a.venue}</th>
                  <th>{item.b.venue}</th>
                </tr>
              </thead>
              <tbody>
                {diffs.map((d, i) => (
                  <tr key={i}>
                    <td>
                      {d.label ?? d.attribute} ({d.state === "oneSide" ? "one side only" : "conflict"})
                    </td>
                    <td>{d.a.join(", ") || "—"}</td>
                    <td>{d.b.join(", ") || "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <div style={{ display: "grid", gridTemplateColumns: "1fr 1fr", gap: "1rem" }}>
            {[
              { side: item.a, words: diffs.flatMap((d) => d.a) },
              { side: item.b, words: diffs.flatMap((d) => d.b) },
            ].map(({ side, words }) => (
              <div key={side.id} data-testid={`review-side-${side.venue}`}>
                <h3>
                  {side.venue} <code>{side.venueMarketId}</code>
                </h3>
                <p>
                  <strong>{side.title}</strong>
                </p>
                <p className="muted">ends {side.resolutionDate === null ? "—" : side.resolutionDate.slice(0, 10)}</p>
                <p style={{ whiteSpace: "pre-wrap" }}>{marked(side.rules, words)}</p>
              </div>
            ))}
          </div>
          <div className="row">
            {Object.entries(keys).map(([key, choice]) => (
              <button key={key} type="button" disabled={pending} onClick={() => act(key)} data-testid={`review-key-${key}`}>
                <kbd>{key}</kbd> {choice.verdict === "confirmed" ? "Confirm" : "Reject"}: {choice.reason}
              </button>
            ))}
          </div>
        </section>
      )}
      <form action={importAction} className="row" data-testid="review-import">
        <label>
          Import reviews (JSON Lines) <input type="file" name="file" accept=".jsonl,.ndjson,application/x-ndjson,text/plain" />
        </label>
        <button type="submit" disabled={importing}>
          Import
        </button>
        {imported !== undefined && (
          <span role="status" className={imported.ok ? "muted" : "error"} data-testid="review-import-message">
            {imported.message}
          </span>
        )}
      </form>
    </div>
  );
}
