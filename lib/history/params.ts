import { z } from "zod";
import { InvalidParameterError } from "@/lib/errors";

/**
 * The value types the history endpoints' parameters share (docs/history.md, "Parameters"); the
 * queries built from them are in ./shapes.ts and are parsed by lib/input.ts.
 */

const MAX_SPAN_MS = 366 * 24 * 3_600_000;

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `now`, or a time before it: `-30s`, `-15m`, `-6h`, `-1d` (examples that never expire). */
function relativeInstant(text: string, now: number): number | undefined {
  if (text === "now") return now;
  const match = /^-(\d{1,5})([smhd])$/.exec(text);
  return match === null ? undefined : now - Number(match[1]) * (UNIT_MS[match[2] ?? ""] ?? Number.NaN);
}

/** An instant: ISO 8601 with a zone (`2026-11-22T10:00:00Z`), epoch milliseconds, `now`, or relative to now (`-1d`, `-6h`, `-15m`, `-30s`). */
export const instant = z
  .string()
  .max(40)
  .transform((text, ctx) => {
    const ms = /^\d{10,14}$/.test(text) ? Number(text) : /(Z|[+-]\d\d:?\d\d)$/i.test(text) ? Date.parse(text) : (relativeInstant(text, Date.now()) ?? Number.NaN);
    if (!Number.isFinite(ms) || ms <= 0) {
      ctx.addIssue({ code: "custom", message: "must be an ISO 8601 time with a zone (…Z), epoch milliseconds, now, or a time before now (-1d, -6h, -15m, -30s)" });
      return z.NEVER;
    }
    return ms;
  });

/** An integer in [1, max] given as text, with a default. */
export function boundedInt(max: number, fallback: number) {
  return z
    .string()
    .regex(/^\d{1,7}$/, "must be a positive integer")
    .transform(Number)
    .pipe(z.number().int().min(1, "must be at least 1").max(max, `must be at most ${max}`))
    .optional()
    .transform((value) => value ?? fallback);
}

export const outcomeIdParam = z
  .string()
  .min(1, "outcomeId is required")
  .max(200, "outcomeId is at most 200 characters")
  .regex(/^[A-Za-z0-9_.:-]+$/, "outcomeId has characters no outcome id has");

export const conditionIdParam = z
  .string()
  .min(1)
  .max(200, "market is at most 200 characters")
  .regex(/^[A-Za-z0-9_.:-]+$/, "market must be a condition id (0x…)");

/** since/until: until defaults to now, since must come first, and the span is at most a year. */
export function timeRange(since: number | undefined, until: number | undefined, defaultSpanMs: number, now = Date.now()): { since: number; until: number } {
  const end = until ?? now;
  const start = since ?? end - defaultSpanMs;
  if (start >= end) throw new InvalidParameterError("since", "since must be before until");
  if (end - start > MAX_SPAN_MS) throw new InvalidParameterError("since", "since and until may be at most 366 days apart");
  return { since: start, until: end };
}
