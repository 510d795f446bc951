import Link from "next/link";

/** A record that does not exist (404 from the API): say so plainly and offer the way back, not a retry. */
export function NotFoundState({ what, id, back = { href: "/", label: "Back to the catalog" } }: { what: string; id: string; back?: { href: string; label: string } }) {
  return (
    <div className="stack" style={{ maxWidth: 640, margin: "3rem auto", textAlign: "center" }} data-testid="not-found">
      <h1>No such {what}</h1>
      <p className="muted">
        No {what} in the catalog matches <code>{id}</code>. It may have been mistyped, or it is not from a venue Brier ingests.
      </p>
      <div className="row" style={{ justifyContent: "center" }}>
        <Link className="button primary" href={back.href}>
          {back.label}
        </Link>
        <Link className="button" href={`/?q=${encodeURIComponent(id.slice(0, 80))}`}>
          Search the catalog for it
        </Link>
      </div>
    </div>
  );
}
