import { formatInteger } from "@/lib/format";

export interface StreamUsageRow {
  keyId: string;
  keyName: string;
  streamMinutes: number;
  messages: number;
}

/** Settings: the plan's stream limits and, per key, stream minutes and messages over 24 hours (/ws and /v0/stream). */
export function StreamUsagePanel({ rows, subscriptions, connectionsPerKey }: { rows: StreamUsageRow[]; subscriptions: number; connectionsPerKey: number }) {
  return (
    <section className="card" aria-labelledby="stream-usage-title" data-testid="stream-usage">
      <h2 id="stream-usage-title">Live streams, last 24 hours</h2>
      <p className="muted small">
        Your plan allows {formatInteger(subscriptions)} concurrent stream subscriptions per key (one per outcome; the firehose counts one) and{" "}
        {formatInteger(connectionsPerKey)} open connections per key, over WebSocket (<code>/ws</code>, what pmxtjs uses) or Server-Sent Events (
        <code>/v0/stream</code>). A stream minute is one subscription open for one minute.
      </p>
      <table className="data">
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col" className="num">
              Stream minutes
            </th>
            <th scope="col" className="num">
              Messages
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={3} className="muted">
                No stream usage yet.
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={row.keyId}>
                <td>{row.keyName}</td>
                <td className="num mono">{row.streamMinutes.toFixed(1)}</td>
                <td className="num mono">{formatInteger(row.messages)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </section>
  );
}
