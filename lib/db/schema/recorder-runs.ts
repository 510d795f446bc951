import { index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * One row per recorder process run, its heartbeat: `beat_at` and `counters` are rewritten every
 * few seconds while it runs, `stopped_at` is set on a clean stop. A run whose beat stopped without
 * `stopped_at` died (kill -9, crash, host loss): it recorded until its last beat. Coverage reads
 * these as the intervals the recorder was up; /v0/status shows the newest.
 */
export const recorderRuns = pgTable(
  "recorder_runs",
  {
    id: uuid("id").primaryKey(),
    host: text("host").notNull(),
    pid: integer("pid").notNull(),
    /** `in-process` (the web server runs it) or `separate process` (npm run recorder). */
    mode: text("mode").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    beatAt: timestamp("beat_at", { withTimezone: true }).notNull(),
    stoppedAt: timestamp("stopped_at", { withTimezone: true }),
    /** The recorder's status counters at the last beat (frames, rows written, connections, lag, ...). */
    counters: jsonb("counters").$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index("recorder_runs_started_at_idx").on(t.startedAt.desc())],
);

export type RecorderRunRow = typeof recorderRuns.$inferSelect;

/**
 * What happened to the recorder (docs/history.md, "Incidents"): connections opened and lost (with
 * the gap until resubscribed in `ended_at`), assets added and dropped, malformed frames, lag above
 * the threshold, back-pressure pauses, insert failures and their retries, rows dropped.
 * `assets` lists the assets it touched; empty means every asset the run recorded.
 */
export const recorderIncidents = pgTable(
  "recorder_incidents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    runId: uuid("run_id")
      .notNull()
      .references(() => recorderRuns.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    /** End of a span (reconnected, resumed, lag back under the threshold, insert succeeded); null for an instant or an open span. */
    endedAt: timestamp("ended_at", { withTimezone: true }),
    assets: text("assets").array().notNull().default([]),
    message: text("message").notNull(),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index("recorder_incidents_started_at_idx").on(t.startedAt.desc()),
    index("recorder_incidents_kind_started_at_idx").on(t.kind, t.startedAt.desc()),
    index("recorder_incidents_assets_idx").using("gin", t.assets),
  ],
);

export type RecorderIncidentRow = typeof recorderIncidents.$inferSelect;
