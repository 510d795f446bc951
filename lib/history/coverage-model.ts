/**
 * Coverage as pure interval arithmetic (docs/history.md, "Coverage"): from the recorder's runs,
 * an asset's subscriptions, its lost connections and the degrading incidents, one condition per
 * UTC hour and the gaps. No store access here, so every rule is tested table-driven.
 */

export const HOUR_MS = 3_600_000;

/** Half-open [start, end), epoch ms. */
export interface Span {
  start: number;
  end: number;
}

/**
 * `synthetic`: no recorder ran in the hour, but a synthetic demo history (`admin demo-ticks`) was
 * written for the asset: rows that no venue sent, labelled as such rather than `missing`.
 */
export type HourCondition = "available" | "degraded" | "missing" | "synthetic";

export type GapReason = "recorder_down" | "not_subscribed" | "connection_lost" | "synthetic";

export interface Gap extends Span {
  reason: GapReason;
}

export interface HourCoverage {
  /** Hour start, epoch ms. */
  hour: number;
  condition: HourCondition;
  /** Share of the hour (up to now) the asset was recorded, 0..1. */
  recorded: number;
  /** Recorded rows of the asset in the hour. */
  rows: number;
  /** Degrading incidents that touched the hour. */
  incidents: number;
}

export interface CoverageInput {
  since: number;
  until: number;
  now: number;
  /** When a recorder process was running (per run: start to clean stop, last beat, or now). */
  runs: readonly Span[];
  /** When the asset was subscribed (assets_added to assets_dropped or its run's end). */
  subscribed: readonly Span[];
  /** When the asset's connection was down (connection_lost to resubscribed, or its run's end). */
  lost: readonly Span[];
  /** When a synthetic demo history of the asset was written (the demo's journal runs, subscribed). */
  synthetic?: readonly Span[];
  /** Degrading incidents touching the asset (an instant has end = start). */
  incidents: readonly Span[];
  /** Rows of the asset per hour start. */
  rowsByHour?: ReadonlyMap<number, number>;
}

/** Sorted, merged union of spans (empty spans dropped). */
export function union(spans: readonly Span[]): Span[] {
  const sorted = spans.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start);
  const out: Span[] = [];
  for (const span of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else out.push({ ...span });
  }
  return out;
}

export function intersect(a: readonly Span[], b: readonly Span[]): Span[] {
  const out: Span[] = [];
  for (const x of union(a)) {
    for (const y of union(b)) {
      const start = Math.max(x.start, y.start);
      const end = Math.min(x.end, y.end);
      if (end > start) out.push({ start, end });
    }
  }
  return union(out);
}

/** `a` minus `b`. */
export function subtract(a: readonly Span[], b: readonly Span[]): Span[] {
  let rest = union(a);
  for (const cut of union(b)) {
    const next: Span[] = [];
    for (const span of rest) {
      if (cut.end <= span.start || cut.start >= span.end) next.push(span);
      else {
        if (cut.start > span.start) next.push({ start: span.start, end: cut.start });
        if (cut.end < span.end) next.push({ start: cut.end, end: span.end });
      }
    }
    rest = next;
  }
  return rest;
}

const length = (spans: readonly Span[]) => spans.reduce((total, s) => total + (s.end - s.start), 0);

/** The spans the asset was recorded: running, subscribed, and its connection up. */
export function recordedSpans(input: CoverageInput): Span[] {
  return subtract(intersect(input.runs, input.subscribed), input.lost);
}

/**
 * One condition per UTC hour from `since` (rounded down) to `until`, never past `now`:
 * `missing` when nothing of the hour was recorded, `degraded` when part of it was not or a
 * degrading incident touched it, `available` otherwise (a quiet hour with no rows is available:
 * the recorder was listening).
 */
export function hourlyCoverage(input: CoverageInput): HourCoverage[] {
  const recorded = recordedSpans(input);
  const end = Math.min(input.until, input.now);
  const out: HourCoverage[] = [];
  for (let hour = Math.floor(input.since / HOUR_MS) * HOUR_MS; hour < end; hour += HOUR_MS) {
    const window = { start: hour, end: Math.min(hour + HOUR_MS, input.now) };
    const span = window.end - window.start;
    const covered = length(intersect(recorded, [window]));
    const touching = input.incidents.filter((i) => i.start < window.end && Math.max(i.end, i.start + 1) > window.start).length;
    const synthetic = covered === 0 && length(intersect(input.synthetic ?? [], [window])) > 0;
    const condition: HourCondition = covered === 0 ? (synthetic ? "synthetic" : "missing") : covered < span || touching > 0 ? "degraded" : "available";
    out.push({ hour, condition, recorded: span > 0 ? Math.round((covered / span) * 1000) / 1000 : 0, rows: input.rowsByHour?.get(hour) ?? 0, incidents: touching });
  }
  return out;
}

/** The spans in [since, min(until, now)) the asset was not recorded, each with why. */
export function coverageGaps(input: CoverageInput): Gap[] {
  const range = [{ start: input.since, end: Math.min(input.until, input.now) }];
  const running = intersect(input.runs, range);
  const synthetic = intersect(input.synthetic ?? [], range);
  const down = subtract(subtract(range, running), synthetic).map((s) => ({ ...s, reason: "recorder_down" as const }));
  const demo = subtract(synthetic, running).map((s) => ({ ...s, reason: "synthetic" as const }));
  const unsubscribed = subtract(running, input.subscribed).map((s) => ({ ...s, reason: "not_subscribed" as const }));
  const lost = intersect(intersect(running, input.subscribed), input.lost).map((s) => ({ ...s, reason: "connection_lost" as const }));
  return [...down, ...demo, ...unsubscribed, ...lost].sort((a, b) => a.start - b.start);
}
