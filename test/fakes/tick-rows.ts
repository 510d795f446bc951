import { normalizeFrame } from "@/lib/recorder/polymarket/normalize";
import { RecorderStats } from "@/lib/recorder/stats";
import { TickWriter } from "@/lib/recorder/writer";
import type { TickStores } from "@/lib/ticks";
import { fixtureFrames } from "./market-channel";

const HOUR = 3_600_000;

/**
 * The fixture frames moved to now-relative time: the median of their timestamps lands on the
 * last full hour, so the candle pattern (last 7 days) sees them and they straddle an hour boundary.
 */
export function shiftedFixtureFrames(now = Date.now()): string[] {
  const stamps = fixtureFrames.flatMap((line) => [...line.matchAll(/"timestamp":"(\d+)"/g)].map((m) => Number(m[1])));
  const sorted = [...stamps].sort((a, b) => a - b);
  const mid = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const offset = Math.floor(now / HOUR) * HOUR - HOUR - mid;
  return fixtureFrames.map((line) => line.replace(/"timestamp":"(\d+)"/g, (_m, ts: string) => `"timestamp":"${Number(ts) + offset}"`));
}

/** Writes frames through the recorder's normalizer and writer (the path the recorder uses). */
export async function writeFrames(stores: TickStores, frames: readonly string[]): Promise<number> {
  const writer = new TickWriter(stores.writer, new RecorderStats());
  let rows = 0;
  for (const frame of frames) {
    const normalized = normalizeFrame(frame, Date.now());
    rows += normalized.rows.length;
    writer.push(normalized.rows);
  }
  await writer.close();
  return rows;
}

/** UTC `YYYY-MM-DD hh:mm:ss` (+ `.sss` when ms is set), the engine's DateTime rendering. */
export function engineTime(ms: number, withMs: boolean): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, withMs ? 23 : 19)}`;
}
