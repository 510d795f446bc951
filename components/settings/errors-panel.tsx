import { formatDateTime, formatInteger } from "@/lib/format";

const meaning: Record<number, string> = {
  400: "bad request (a parameter or body was refused)",
  401: "no key, or an unknown or revoked key",
  403: "plan too low for the route",
  404: "no such route or record",
  408: "SQL query timed out",
  413: "request body too large",
  429: "rate limit reached",
  500: "server error",
  502: "venue error",
  503: "service unavailable",
  504: "venue or query timeout",
};

export interface ErrorsView {
  total: number;
  byStatus: { status: number; count: number }[];
  recent: { at: string; keyName: string; method: string; path: string; status: number; requestId: string }[];
}

/** Failed requests of the account's keys over 24 hours: counted by status, the newest listed. */
export function ErrorsPanel({ errors }: { errors: ErrorsView }) {
  return (
    <section className="card stack" aria-labelledby="errors-title" style={{ gap: "0.75rem" }} data-testid="errors-panel">
      <h2 id="errors-title">
        Errors, last 24 hours <span className="muted small">({formatInteger(errors.total)} failed requests)</span>
      </h2>
      {errors.total === 0 ? (
        <p className="muted" style={{ margin: 0 }}>
          No request made with your keys failed in the last 24 hours.
        </p>
      ) : (
        <>
          <table className="data" data-testid="errors-by-status" style={{ maxWidth: 640 }}>
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Meaning</th>
                <th scope="col" className="num">
                  Requests
                </th>
              </tr>
            </thead>
            <tbody>
              {errors.byStatus.map((row) => (
                <tr key={row.status}>
                  <td className="mono down">{row.status}</td>
                  <td>{meaning[row.status] ?? "error"}</td>
                  <td className="num mono">{formatInteger(row.count)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <details>
            <summary>Newest {errors.recent.length} failed requests</summary>
            <table className="data small" data-testid="errors-recent">
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Key</th>
                  <th scope="col">Request</th>
                  <th scope="col">Status</th>
                  <th scope="col">Request id</th>
                </tr>
              </thead>
              <tbody>
                {errors.recent.map((row) => (
                  <tr key={row.requestId + row.at}>
                    <td className="nowrap">{formatDateTime(row.at)}</td>
                    <td>{row.keyName}</td>
                    <td className="mono">
                      {row.method} {row.path}
                    </td>
                    <td className="mono down">{row.status}</td>
                    <td className="mono muted">{row.requestId}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </>
      )}
    </section>
  );
}
