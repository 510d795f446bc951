"use client";
import { useQuery } from "@tanstack/react-query";
import { ErrorState, SkeletonRows } from "@/components/ui/query-state";
import { getJson } from "@/lib/browser/api-client";
import { formatAge, formatDateTime } from "@/lib/format";

interface Heartbeat {
  mode: string;
  host: string;
  pid: number;
  running: boolean;
  state: string;
  startedAt: string;
  lastHeartbeatAt: string;
}

interface IncidentsAnswer {
  data: Array<{ id: string; kind: string; startedAt: string; endedAt: string | null; durationMs: number | null; degrading: boolean; message: string }>;
}

/**
 * The recorder as its heartbeat shows it (also when it runs as its own process) and its latest
 * incidents (GET /v0/incidents). Shares the status page's /v0/status query.
 */
export function RecorderIncidents() {
  const status = useQuery({
    queryKey: ["status"],
    queryFn: ({ signal }) => getJson<{ recorder?: { heartbeat?: Heartbeat | null } }>("/v0/status", signal),
    refetchInterval: 15_000,
  });
  const incidents = useQuery({
    queryKey: ["incidents"],
    queryFn: ({ signal }) => getJson<IncidentsAnswer>("/v0/incidents?limit=20", signal),
    refetchInterval: 15_000,
  });
  const heartbeat = status.data?.recorder?.heartbeat ?? null;
  return (
    <section className="card" aria-labelledby="recorder-incidents" data-testid="recorder-incidents">
      <h2 id="recorder-incidents">Recorder heartbeat and incidents</h2>
      <p className="small" data-testid="recorder-heartbeat">
        {heartbeat === null ? (
          <span className="muted">No recorder has written a heartbeat yet.</span>
        ) : (
          <>
            <span className={heartbeat.running ? "up" : "down"}>{heartbeat.state}</span> · {heartbeat.mode} on {heartbeat.host} (pid {heartbeat.pid}) · started{" "}
            {formatDateTime(heartbeat.startedAt)} · last heartbeat {formatAge(heartbeat.lastHeartbeatAt)}
          </>
        )}
      </p>
      {incidents.isPending ? (
        <SkeletonRows rows={3} />
      ) : incidents.isError ? (
        <ErrorState error={incidents.error} title="Incidents could not be loaded" onRetry={() => void incidents.refetch()} />
      ) : incidents.data.data.length === 0 ? (
        <p className="muted">No incidents in the last 7 days.</p>
      ) : (
        <table className="data" data-testid="incidents-table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Kind</th>
              <th scope="col">Duration</th>
              <th scope="col">What happened</th>
            </tr>
          </thead>
          <tbody>
            {incidents.data.data.map((incident) => (
              <tr key={incident.id}>
                <td className="nowrap">{formatDateTime(incident.startedAt)}</td>
                <td>
                  <span className={`badge ${incident.degrading ? "down" : ""}`}>{incident.kind}</span>
                </td>
                <td className="mono nowrap">{incident.durationMs === null ? (incident.endedAt === null && incident.degrading ? "open" : "–") : `${(incident.durationMs / 1000).toFixed(1)} s`}</td>
                <td className="small">{incident.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
