import "server-only";
import { bind, tickRows, tickStream, type TickReader } from "@/lib/ticks";
import { outcomesTable } from "@/lib/ticks/ddl/0006_market_outcomes";

/*
 * A venue's outcome changes of one UTC day, for the archive (docs/history.md, "Outcomes files"):
 * every ClickHouse `market_outcomes` row Brier received that day (by `received_time`: a day that has
 * ended gets no new row, so its file never changes), as the table holds it, in one fixed order.
 * Read through a TickReader, as every read of the table.
 */

const DAY_MS = 86_400_000;

/** The file's row order: when Brier received each change, then the market and the venue's time. */
export const OUTCOMES_FILE_ORDER = "received_time, market, venue_time, state, venue_state, raw";

const dayBinds = (venue: string, dayStart: number) => {
  if (dayStart % DAY_MS !== 0) throw new Error("a day starts at 00:00 UTC");
  return { venue: bind.string(venue), from: bind.time(dayStart), to: bind.time(dayStart + DAY_MS) };
};

const DAY_FILTER = "venue = {venue:String} AND received_time >= {from:DateTime64(3)} AND received_time < {to:DateTime64(3)}";

/**
 * The day's rows as Parquet (zstd), chunk by chunk from the engine: the archive's outcomes file.
 * One thread: with two, the engine's output (and so the file's bytes, its SHA-256 and ETag) changed
 * with how the table's parts happened to be merged (measured: the same 6 rows gave two row groups
 * over 6 parts, one after OPTIMIZE); with one, the same rows give the same file.
 */
export function outcomesDayParquet(ticks: TickReader, venue: string, dayStart: number, signal?: AbortSignal): AsyncIterable<Uint8Array> {
  return tickStream(
    ticks,
    `SELECT received_time, venue_time, market, venue_market_id, outcome_ids, state, venue_state, winning_outcome_id, settlement_value,
        closed_time, source, resolution_source, raw
      FROM ${outcomesTable} WHERE ${DAY_FILTER}
      ORDER BY ${OUTCOMES_FILE_ORDER}
      SETTINGS output_format_parquet_compression_method = 'zstd', output_format_parquet_string_as_string = 1, max_threads = 1`,
    dayBinds(venue, dayStart),
    "Parquet",
    signal,
  );
}

/** What the day holds: its rows, its markets and the latest receive time (says whether a built file is still the day's). */
export async function outcomesDaySummary(ticks: TickReader, venue: string, dayStart: number): Promise<{ rows: number; markets: number; maxReceivedMs: number }> {
  const [row] = await tickRows<[number | string, number | string, number | string]>(
    ticks,
    `SELECT count(), uniqExact(market), toUnixTimestamp64Milli(max(received_time)) FROM ${outcomesTable} WHERE ${DAY_FILTER}`,
    dayBinds(venue, dayStart),
  );
  return { rows: Number(row?.[0] ?? 0), markets: Number(row?.[1] ?? 0), maxReceivedMs: Number(row?.[2] ?? 0) };
}
