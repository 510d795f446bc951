import Link from "next/link";

// Any path the app does not serve: say so, with the way back.
export default function NotFound() {
  return (
    <div className="stack" style={{ maxWidth: 640, margin: "3rem auto", textAlign: "center" }} data-testid="not-found">
      <h1>Page not found</h1>
      <p className="muted">There is no page at this address.</p>
      <div className="row" style={{ justifyContent: "center" }}>
        <Link className="button primary" href="/">
          Back to the catalog
        </Link>
        <Link className="button" href="/status">
          Status
        </Link>
      </div>
    </div>
  );
}
