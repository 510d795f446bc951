import { z } from "zod";
import { conditionIdParam } from "@/lib/history/params";
import { condition } from "@/lib/history/shapes";
import { archiveDate, archiveVenue } from "./hours";

export const manifestQuery = z
  .object({
    date: archiveDate.describe("The UTC day, YYYY-MM-DD. Required."),
    venue: archiveVenue.optional().describe("The recorded venue: polymarket (default) or kalshi."),
    market: conditionIdParam.optional().describe("Only this market's rows (condition id on Polymarket, market ticker on Kalshi); default the whole archive, with each closed hour's Parquet file."),
  })
  .strict();
export type ManifestQuery = z.output<typeof manifestQuery>;

export const manifestHourPublic = z.object({
  hour: z.iso.datetime().describe("Hour start, ISO 8601 UTC."),
  rows: z.number().int().describe("Distinct rows (timestamp, market, event_type, data) of the hour."),
  assets: z.number().int().describe("Distinct assets with rows in the hour."),
  checksum: z.string().describe("SHA-256 (hex) of the hour's rows as lines, in the documented order; of the empty string when none."),
  condition: condition.describe("The venue recorder's condition for the hour (whole archive)."),
  file: z
    .object({
      url: z.string().describe("Path of the hour's Parquet file (GET /v0/archive/{venue}/{date}/{HH}.parquet)."),
      rows: z.number().int().describe("Rows in the file (= rows)."),
      bytes: z.number().int().describe("Size of the file."),
      checksum: z.string().describe("The hour's checksum: the file's ETag."),
      sha256: z.string().describe("SHA-256 (hex) of the file's bytes."),
    })
    .nullable()
    .describe("The hour's Parquet file; null while the hour is open, when it has no rows, and with market="),
});
export type ManifestHour = z.output<typeof manifestHourPublic>;

export const manifestResponse = z.object({
  data: z.object({
    date: z.string(),
    venue: z.string().describe("The recorded venue (its table: polymarket_orderbook_rust or kalshi_orderbook)."),
    market: z.string().nullable(),
    checksum: z.object({ algorithm: z.literal("sha256"), order: z.string(), line: z.string() }).describe("How the checksum is computed: algorithm, row order, line format."),
    hours: z.array(manifestHourPublic),
    outcomes: z
      .object({
        url: z.string().describe("Path of the day's outcomes file (GET /v0/archive/{venue}/{date}/outcomes.parquet)."),
        rows: z.number().int().describe("Changes of a market's outcome in the file: every one Brier received that day."),
        markets: z.number().int().describe("Distinct markets they concern."),
        bytes: z.number().int().describe("Size of the file."),
        checksum: z.string().describe("The file's ETag (= sha256)."),
        sha256: z.string().describe("SHA-256 (hex) of the file's bytes."),
      })
      .nullable()
      .describe("The day's outcomes file (ClickHouse market_outcomes rows received that day, sorted by received_time, market, venue_time); null until the day is closed (2 minutes after it ends), when nothing changed that day, and with market="),
  }),
});
