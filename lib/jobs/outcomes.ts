import "server-only";
import { getDb } from "@/lib/db";
import { getLiveBus } from "@/lib/live/connection";
import { ResolutionSink } from "@/lib/outcomes/sink";
import { startOutcomeReaders, type OutcomeReaders } from "@/lib/recorder/outcome-readers";
import { getTickStores } from "@/lib/ticks";

export interface OutcomeSweeps {
  /** Where the recorders' push half hands its records (pass it in the context of startRecorders, lib/recorder/registry.ts). */
  sink: ResolutionSink;
  readers: OutcomeReaders;
  /** Stops the sweeps and waits for every record handed in to be written. */
  stop: () => Promise<void>;
}

/**
 * The outcome readers (docs/outcomes.md) where the recorders run, the server's background jobs
 * with embedded stores or `npm run recorder` beside a ClickHouse server: one sink writing both
 * stores and publishing each change on the live bus (when one can be had), and the REST sweeps of
 * the recorded venues (lib/recorder/registry.ts).
 */
export async function startOutcomeSweeps(): Promise<OutcomeSweeps> {
  const [db, stores, bus] = await Promise.all([getDb(), getTickStores(), getLiveBus().catch(() => undefined)]);
  const sink = new ResolutionSink(db, stores.writer, bus);
  const readers = startOutcomeReaders(sink);
  return {
    sink,
    readers,
    stop: async () => {
      readers.stop();
      await sink.flushed();
    },
  };
}
