import type { IngestProgress } from "@/lib/catalog/ingest";

/**
 * A progress display for `admin ingest` on stderr: one line per venue, redrawn in place on a TTY
 * (`polymarket  upserting  [#######-------]  3500/5000`), one line per phase change otherwise.
 * Returns the `onProgress` callback for a catalog ingestion and a `finish` that leaves the cursor below.
 */
export function progressBar(stream: NodeJS.WriteStream = process.stderr): {
  onProgress: (p: IngestProgress) => void;
  finish: () => void;
} {
  const state = new Map<string, IngestProgress>();
  const lastPhase = new Map<string, string>();
  let drawn = 0;
  const width = 24;
  const line = (p: IngestProgress) => {
    const total = p.total ?? 0;
    const ratio = total > 0 ? Math.min(1, p.done / total) : p.phase === "done" ? 1 : 0;
    const filled = Math.round(ratio * width);
    const bar = `[${"#".repeat(filled)}${"-".repeat(width - filled)}]`;
    const count = total > 0 ? `${p.done}/${total}` : String(p.done);
    return `${p.venue.padEnd(12)} ${p.phase.padEnd(9)} ${bar} ${count}`;
  };
  const redraw = () => {
    if (drawn > 0) stream.write(`\u001b[${drawn}A`);
    const lines = [...state.values()].map(line);
    for (const l of lines) stream.write(`\u001b[2K${l}\n`);
    drawn = lines.length;
  };
  return {
    onProgress: (p) => {
      state.set(p.venue, p);
      if (stream.isTTY) return redraw();
      if (lastPhase.get(p.venue) !== p.phase) {
        lastPhase.set(p.venue, p.phase);
        stream.write(`${line(p)}\n`);
      }
    },
    finish: () => {
      if (stream.isTTY) redraw();
    },
  };
}
