"use client";
import type { CalibrationFigure } from "@/lib/calibration/shapes";

/** One colour per venue, in the order the answer lists them (colour-blind safe, Okabe–Ito). */
export const venueColours = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#F0E442", "#000000"];

const SIZE = 360;
const PAD = 40;
const scale = (v: number) => PAD + v * (SIZE - 2 * PAD);
const yScale = (v: number) => SIZE - PAD - v * (SIZE - 2 * PAD);

/**
 * The reliability diagram: for each venue (one colour each, on one chart), each non-empty bin's
 * mean forecast against the share that resolved Yes, with its Wilson 95 % interval as a whisker;
 * the diagonal is perfect calibration. A point's size grows with its count; each point links to
 * the markets behind it.
 */
export function ReliabilityDiagram({ figures, hrefOf }: { figures: CalibrationFigure[]; hrefOf: (figure: CalibrationFigure, bin: number) => string }) {
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const maxCount = Math.max(1, ...figures.flatMap((f) => f.bins.map((b) => b.count)));
  return (
    <figure style={{ margin: 0 }}>
      <svg
        viewBox={`0 0 ${SIZE} ${SIZE}`}
        width={SIZE}
        height={SIZE}
        role="img"
        aria-label={`Reliability diagram: ${figures.map((f) => `${f.venue} ${f.horizon}`).join(", ")}`}
        data-testid="reliability-diagram"
      >
        <rect x={PAD} y={PAD} width={SIZE - 2 * PAD} height={SIZE - 2 * PAD} fill="none" stroke="var(--border)" />
        {ticks.map((t) => (
          <g key={t}>
            <line x1={scale(t)} x2={scale(t)} y1={yScale(0)} y2={yScale(0) + 4} stroke="currentColor" />
            <text x={scale(t)} y={yScale(0) + 16} fontSize="10" textAnchor="middle" fill="currentColor">
              {Math.round(t * 100)}%
            </text>
            <line x1={PAD - 4} x2={PAD} y1={yScale(t)} y2={yScale(t)} stroke="currentColor" />
            <text x={PAD - 6} y={yScale(t) + 3} fontSize="10" textAnchor="end" fill="currentColor">
              {Math.round(t * 100)}%
            </text>
          </g>
        ))}
        <text x={SIZE / 2} y={SIZE - 6} fontSize="11" textAnchor="middle" fill="currentColor">
          forecast (price at the horizon)
        </text>
        <text x={12} y={SIZE / 2} fontSize="11" textAnchor="middle" fill="currentColor" transform={`rotate(-90 12 ${SIZE / 2})`}>
          resolved Yes
        </text>
        <line x1={scale(0)} y1={yScale(0)} x2={scale(1)} y2={yScale(1)} stroke="var(--muted, #888)" strokeDasharray="4 4" data-testid="reliability-diagonal" />
        {figures.map((figure, i) => {
          const colour = venueColours[i % venueColours.length];
          const points = figure.bins.filter((b) => b.count > 0 && b.meanForecast !== null && b.observedFrequency !== null);
          return (
            <g key={`${figure.venue}-${figure.horizon}`} data-testid="reliability-venue" data-venue={figure.venue} data-points={points.length}>
              <polyline
                fill="none"
                stroke={colour}
                strokeWidth={1.5}
                points={points.map((b) => `${scale(b.meanForecast ?? 0)},${yScale(b.observedFrequency ?? 0)}`).join(" ")}
              />
              {points.map((b) => (
                <a key={b.bin} href={hrefOf(figure, b.bin)} data-testid="reliability-point" data-bin={b.bin} data-count={b.count}>
                  <title>
                    {`${figure.venue} ${figure.horizon}, bin ${b.lower.toFixed(2)}–${b.upper.toFixed(2)}: ${b.count} markets, mean forecast ${((b.meanForecast ?? 0) * 100).toFixed(1)}%, resolved Yes ${((b.observedFrequency ?? 0) * 100).toFixed(1)}% (95% ${((b.wilsonLow ?? 0) * 100).toFixed(1)}–${((b.wilsonHigh ?? 0) * 100).toFixed(1)}%)`}
                  </title>
                  <line x1={scale(b.meanForecast ?? 0)} x2={scale(b.meanForecast ?? 0)} y1={yScale(b.wilsonLow ?? 0)} y2={yScale(b.wilsonHigh ?? 0)} stroke={colour} strokeOpacity={0.6} />
                  <circle cx={scale(b.meanForecast ?? 0)} cy={yScale(b.observedFrequency ?? 0)} r={2.5 + 4 * Math.sqrt(b.count / maxCount)} fill={colour} />
                </a>
              ))}
            </g>
          );
        })}
      </svg>
      <figcaption className="small">
        {figures.map((figure, i) => (
          <span key={figure.venue} style={{ marginRight: "1rem" }}>
            <span aria-hidden style={{ display: "inline-block", width: 10, height: 10, borderRadius: 5, background: venueColours[i % venueColours.length], marginRight: 4 }} />
            {figure.venue}
          </span>
        ))}
        <span className="muted">Dashed: perfect calibration. Whiskers: Wilson 95% interval.</span>
      </figcaption>
    </figure>
  );
}
