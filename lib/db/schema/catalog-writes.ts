import { bigint, pgTable } from "drizzle-orm/pg-core";

/**
 * The catalog's generation (owned by lib/catalog; written only by the triggers of drizzle/0025): a
 * row `n = 1` per statement that writes `markets`, `market_quotes`, `market_ranks` or
 * `market_outcomes`, inserted in the writer's own transaction. `sum(n)` under a statement's snapshot
 * grows with every writer transaction that snapshot newly sees, so two equal sums mean the same
 * catalog (lib/catalog/generation.ts; docs/performance.md, "Eighth pass"). Inserts only: no writer
 * waits on another's row. The trigger folds the rows below its own into one row carrying their sum
 * (rows another transaction holds are skipped), so the table stays a few dozen rows.
 * Append-only by contract: never truncated or rewritten by hand (a smaller sum could be taken for an
 * older catalog).
 */
export const catalogWrites = pgTable("catalog_writes", {
  id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
  /** How many catalog write statements this row stands for (1, or a fold's sum). */
  n: bigint("n", { mode: "number" }).notNull(),
});
