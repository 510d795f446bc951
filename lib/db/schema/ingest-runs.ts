import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** One row per catalog ingestion of one venue: what GET /v0/status reports. */
export const ingestRuns = pgTable(
  "ingest_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    venue: text("venue").notNull(),
    /** `schedule` (in-process), `cron` (GET /api/cron/ingest), `cli` (admin ingest), `test`. */
    trigger: text("trigger").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /** `running`, `succeeded`, `failed`, or `abandoned` (its process died; closed by the next run). */
    outcome: text("outcome").notNull(),
    attempts: integer("attempts").notNull().default(0),
    eventsSeen: integer("events_seen").notNull().default(0),
    marketsSeen: integer("markets_seen").notNull().default(0),
    marketsClosed: integer("markets_closed").notNull().default(0),
    /** Short, safe description of the failure (never credentials). */
    error: text("error"),
  },
  (t) => [index("ingest_runs_venue_started_at_idx").on(t.venue, t.startedAt.desc())],
);
