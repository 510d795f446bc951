import type { NormalizedFrame, TickRow } from "@/lib/recorder/rows";

/**
 * Venue X's frames -> rows in the vocabulary every recorded venue's table shares (docs/ticks.md):
 * a `book` message `{"kind":"book","market","outcome","time","bids":[[price,size],…],"asks":…}`
 * (each side best first, as venue X sends it) becomes one `book` row whose sides are in the shared
 * order (best level LAST); anything else is counted as ignored, a message missing a field as malformed.
 */
export function normalizeVenueXFrame(text: string, receivedMs: number): NormalizedFrame {
  const frame: NormalizedFrame = { rows: [], ignored: {}, malformed: 0, latestVenueMs: undefined };
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    frame.malformed += 1;
    return frame;
  }
  const m = message as Record<string, unknown>;
  if (m.kind !== "book") {
    const kind = typeof m.kind === "string" ? m.kind : "unknown";
    frame.ignored[kind] = (frame.ignored[kind] ?? 0) + 1;
    return frame;
  }
  const levels = (side: unknown) => (Array.isArray(side) && side.every((l) => Array.isArray(l) && typeof l[0] === "string" && typeof l[1] === "string") ? (side as [string, string][]) : undefined);
  const bids = levels(m.bids);
  const asks = levels(m.asks);
  if (typeof m.market !== "string" || typeof m.outcome !== "string" || typeof m.time !== "number" || bids === undefined || asks === undefined) {
    frame.malformed += 1;
    return frame;
  }
  const parsed = { asset_id: m.outcome, bids: [...bids].reverse(), asks: [...asks].reverse(), hash: "", tick_size: "0.01" };
  const row: TickRow = { timestampMs: m.time, receivedMs, market: m.market, eventType: "book", data: JSON.stringify(parsed), parsed };
  frame.rows.push(row);
  frame.latestVenueMs = m.time;
  return frame;
}
