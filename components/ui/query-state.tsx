import type { ReactNode } from "react";

/** The error state every data island shares: what failed, in the server's words, and a retry. */
export function ErrorState({ error, onRetry, title = "Could not load this" }: { error: unknown; onRetry?: () => void; title?: string }) {
  const message = error instanceof Error ? error.message : "Unknown error.";
  const code = (error as { code?: unknown }).code;
  return (
    <div className="error" role="alert">
      <strong>{title}.</strong> {message}
      {typeof code === "string" && <span className="muted small"> ({code})</span>}
      {onRetry !== undefined && (
        <>
          {" "}
          <button type="button" className="link" onClick={onRetry}>
            Retry
          </button>
        </>
      )}
    </div>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <div className="card muted" style={{ textAlign: "center", padding: "2rem" }}>{children}</div>;
}

/** Placeholder rows with the height of the real ones, so the page does not jump when data arrives. */
export function SkeletonRows({ rows, height = 44 }: { rows: number; height?: number }) {
  return (
    <div aria-hidden="true" className="stack" style={{ gap: 6 }}>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton" style={{ height: height - 6 }} />
      ))}
    </div>
  );
}
