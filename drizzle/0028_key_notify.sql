-- Key admission without a round trip (lib/auth/key-watch.ts): every instance on PostgreSQL keeps
-- the principals it admitted while it LISTENs on `brier_keys`, and drops them all when a statement
-- that could change one commits. PostgreSQL sends the notification to every listening session at
-- that commit (a write of another instance, the admin CLI, psql alike). Only the columns a
-- principal is made of fire it: `last_used_at` (written behind every minute) and passwords do not.
CREATE OR REPLACE FUNCTION brier_keys_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('brier_keys', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER api_keys_principal_changed
AFTER UPDATE OF hash, account_id, revoked_at OR DELETE ON api_keys
FOR EACH STATEMENT EXECUTE FUNCTION brier_keys_changed();
--> statement-breakpoint
CREATE TRIGGER api_keys_principal_truncated
AFTER TRUNCATE ON api_keys
FOR EACH STATEMENT EXECUTE FUNCTION brier_keys_changed();
--> statement-breakpoint
CREATE TRIGGER accounts_principal_changed
AFTER UPDATE OF id, email, plan OR DELETE ON accounts
FOR EACH STATEMENT EXECUTE FUNCTION brier_keys_changed();
--> statement-breakpoint
CREATE TRIGGER accounts_principal_truncated
AFTER TRUNCATE ON accounts
FOR EACH STATEMENT EXECUTE FUNCTION brier_keys_changed();
