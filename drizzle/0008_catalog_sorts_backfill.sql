-- Backfill of the sort keys added in the previous migration (new writes compute them in lib/catalog/store.ts).
UPDATE "markets" SET "abs_change24h" = coalesce(
  (SELECT max(abs((o->>'priceChange24h')::float8)) FROM jsonb_array_elements("outcomes") AS o), 0);--> statement-breakpoint
UPDATE "events" AS e SET "abs_change24h" = agg.move, "liquidity" = agg.liquidity
FROM (SELECT "event_id", max("abs_change24h") AS move, sum("liquidity") AS liquidity FROM "markets" GROUP BY "event_id") AS agg
WHERE agg."event_id" = e."id";
