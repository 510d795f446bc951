import { countAxis, formatInteger } from "@/lib/format";
import styles from "./settings.module.css";

const COLORS = ["var(--accent)", "#e39b28", "#2aa7b8", "#b26bd8", "var(--up)", "#8a8f98"];
const W = 960;
const H = 220;
const PAD = { left: 44, right: 12, top: 10, bottom: 28 };

export interface UsageSeries {
  name: string;
  hourly: number[];
}

/**
 * Requests per hour over the last 24 hours, one stacked colour per key: a count axis, an hour
 * axis in UTC, and a legend naming each key with its total. Plain SVG, rendered on the server.
 */
export function UsageChart({ series, windowStart }: { series: UsageSeries[]; windowStart: string }) {
  const hours = series[0]?.hourly.length ?? 24;
  const totals = Array.from({ length: hours }, (_, i) => series.reduce((sum, s) => sum + (s.hourly[i] ?? 0), 0));
  const { top, ticks } = countAxis(Math.max(0, ...totals));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / hours;
  const y = (count: number) => PAD.top + plotH - (count / top) * plotH;
  const start = Date.parse(windowStart);
  const shown = series.filter((s) => s.hourly.some((n) => n > 0));
  return (
    <figure className={styles.usage} data-testid="usage-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Requests per hour over the last ${hours} hours, by key`}>
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(tick)} y2={y(tick)} className={styles.gridLine} />
            <text x={PAD.left - 6} y={y(tick) + 4} textAnchor="end" className={styles.axisText}>
              {formatInteger(Math.round(tick))}
            </text>
          </g>
        ))}
        {Array.from({ length: hours }, (_, i) => {
          let base = 0;
          return (
            <g key={i}>
              {series.map((s, k) => {
                const count = s.hourly[i] ?? 0;
                if (count === 0) return null;
                const rect = (
                  <rect key={k} x={PAD.left + i * slot + 1} width={Math.max(1, slot - 2)} y={y(base + count)} height={y(base) - y(base + count)} fill={COLORS[k % COLORS.length]}>
                    <title>{`${s.name}: ${count} requests, ${new Date(start + i * 3_600_000).toISOString().slice(11, 16)} UTC`}</title>
                  </rect>
                );
                base += count;
                return rect;
              })}
            </g>
          );
        })}
        <line x1={PAD.left} x2={W - PAD.right} y1={y(0)} y2={y(0)} className={styles.axisLine} />
        <line x1={PAD.left} x2={PAD.left} y1={PAD.top} y2={y(0)} className={styles.axisLine} />
        {Array.from({ length: hours }, (_, i) =>
          i % 3 === 0 ? (
            <text key={i} x={PAD.left + i * slot + slot / 2} y={H - 8} textAnchor="middle" className={styles.axisText}>
              {new Date(start + i * 3_600_000).toISOString().slice(11, 16)}
            </text>
          ) : null,
        )}
      </svg>
      <figcaption className={styles.legend}>
        <span className="muted">Requests per hour (UTC), last {hours} h:</span>
        {shown.length === 0 ? (
          <span className="muted">no requests with a key yet</span>
        ) : (
          series.map((s, k) =>
            s.hourly.some((n) => n > 0) ? (
              <span key={s.name + k}>
                <span className={styles.swatch} style={{ background: COLORS[k % COLORS.length] }} aria-hidden="true" />
                {s.name} ({formatInteger(s.hourly.reduce((a, b) => a + b, 0))})
              </span>
            ) : null,
          )
        )}
      </figcaption>
    </figure>
  );
}
