-- The catalog's generation (lib/catalog/generation.ts; docs/performance.md, "Eighth pass"): every
-- statement that writes a table a market's answer is made of adds a row n = 1 in its own
-- transaction, and sum(n) under a snapshot says which writes that snapshot sees. Inserts take no
-- lock another writer waits on, so concurrent write batches stay concurrent.
CREATE TABLE "catalog_writes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "catalog_writes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"n" bigint NOT NULL
);
--> statement-breakpoint
-- One row per write statement (statement-level: a batch of 1,000 rows is one row here). Every 32nd
-- row's writer folds the rows below its own into one row carrying their sum, in its own
-- transaction: a snapshot sees the same sum before and after the fold commits (the deleted rows
-- and their sum appear and vanish together). Rows another transaction holds (its own fold, or not
-- yet committed) are skipped, so no writer waits on another; the table stays a few dozen rows.
CREATE FUNCTION brier_catalog_written() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  written bigint;
BEGIN
  INSERT INTO catalog_writes (n) VALUES (1) RETURNING id INTO written;
  IF written % 32 = 0 THEN
    WITH folded AS (
      DELETE FROM catalog_writes
      WHERE id IN (SELECT w.id FROM catalog_writes w WHERE w.id < written FOR UPDATE SKIP LOCKED)
      RETURNING n
    )
    INSERT INTO catalog_writes (n) SELECT sum(n) FROM folded HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER markets_catalog_written AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON markets
FOR EACH STATEMENT EXECUTE FUNCTION brier_catalog_written();
--> statement-breakpoint
CREATE TRIGGER market_quotes_catalog_written AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON market_quotes
FOR EACH STATEMENT EXECUTE FUNCTION brier_catalog_written();
--> statement-breakpoint
CREATE TRIGGER market_ranks_catalog_written AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON market_ranks
FOR EACH STATEMENT EXECUTE FUNCTION brier_catalog_written();
--> statement-breakpoint
CREATE TRIGGER market_outcomes_catalog_written AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON market_outcomes
FOR EACH STATEMENT EXECUTE FUNCTION brier_catalog_written();
--> statement-breakpoint
-- Append-only: a rewritten or emptied table could answer a sum an older catalog had.
CREATE FUNCTION brier_catalog_writes_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'catalog_writes is append-only (the catalog generation): only its triggers fold it';
END
$$;
--> statement-breakpoint
CREATE TRIGGER catalog_writes_append_only BEFORE UPDATE OR TRUNCATE ON catalog_writes
FOR EACH STATEMENT EXECUTE FUNCTION brier_catalog_writes_append_only();
