import Link from "next/link";

// An event id nothing in the catalog answers to (HTTP 404).
export default function EventNotFound() {
  return (
    <div className="stack" style={{ maxWidth: 640, margin: "3rem auto", textAlign: "center" }} data-testid="not-found">
      <h1>No such event</h1>
      <p className="muted">No event in the catalog matches this address. It may have been mistyped, or it is not from a venue Brier ingests.</p>
      <div className="row" style={{ justifyContent: "center" }}>
        <Link className="button primary" href="/">
          Back to the catalog
        </Link>
      </div>
    </div>
  );
}
